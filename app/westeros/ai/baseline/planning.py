"""The baseline AI's Planning phase (RULES.md 4): order placement and the Messenger Raven."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping

from ...engine import board
from ...engine.actions import Action, Choose
from ...engine.consolidate import consolidate_yield
from ...engine.content import LAND
from ...engine.planning import LOOK, NOTHING, ReplaceOrder
from .. import legal
from ..analysis import DEFENSE, Situation, win_chance
from .policy import CONSOLIDATE, MIN_MARCH_GAIN, Data, Policy, Token


class PlanningPolicy(Policy):
    """Planning (4): marches first, then the best other order per area; the Raven."""

    def place_orders(self, sit: Situation, data: Data) -> Action:
        """Secret order placement (4.1-4.3): marches first, then the best other order for each
        area, best token of each type to the most valuable use; every area filled (4.2)."""
        tokens = legal.usable_tokens(data)
        by_type: dict[str, list[Token]] = defaultdict(list)
        for t in tokens:
            by_type[t["type"]].append(t)
        ideas: list[tuple[float, str, str, str, str | None]] = []
        for area in data["areas"]:
            for gain, target, combat in self.march_ideas(sit, area):
                want = "best" if combat else "cheap"
                ideas.append((gain, area, "march", want, target))
        ideas.sort(key=lambda i: -i[0])
        marches: dict[str, tuple[float, str, str, str, str | None]] = {}
        targets: set[str | None] = set()
        for idea in ideas:
            if idea[0] < MIN_MARCH_GAIN or len(marches) >= len(by_type["march"]):
                break
            if idea[1] not in marches and idea[4] not in targets:
                marches[idea[1]] = idea
                targets.add(idea[4])
        attacked = {i[4] for i in marches.values() if i[3] == "best" and i[4] is not None}
        items = list(marches.values())
        for area in data["areas"]:
            if area not in marches:
                items.extend(self.order_ideas(sit, area, attacked))
                items.extend(plugin_order_ideas(sit, area, by_type))
        items.sort(key=lambda i: -i[0])
        chosen: dict[str, str] = {}
        used: set[str] = set()
        room = data["star_limit"]
        for score, area, kind, want, _ in items:
            if area in chosen or score <= 0:
                continue
            token = pick_token(by_type[kind], want, room, used)
            if token is None:
                continue
            chosen[area] = token["id"]
            used.add(token["id"])
            room -= token["star"]
        return legal.complete_orders(chosen, data, self.filler_rank(sit))

    def march_ideas(self, sit: Situation, area: str) -> list[tuple[float, str, bool]]:
        """(gain, target, is a combat) for marching the army in ``area`` (planning estimate)."""
        units = [u for u in sit.units(area) if not u.routed]
        if not units:
            return []
        s = sit.state
        me = sit.me
        rules = sit.rules
        aggression = self.personality.aggression
        out = []
        cost = self.vacate_cost(sit, area, len(units))
        for target in sit.reach.get(area, ()):
            if target in s.neutral:
                strength = sit.strength(units, sit.is_castle(target)) + 1
                strength += sit.support_potential(target, me, exclude=area)
                if strength >= s.neutral[target]:
                    out.append((aggression * (sit.value(target) + 0.3) - cost, target, True))
                continue
            margin = sit.planned_margin(area, target)
            if margin is not None:
                p = win_chance(margin)
                gain = p * (sit.value(target) + 0.3 * len(sit.units(target)))
                gain -= (1 - p) * 0.6 * sit.strength(units)
                out.append((aggression * gain - cost, target, True))
            elif sit.control[target] != me and rules.domain[target] == LAND:
                gain = 0.8 * sit.value(target) + (0.3 if s.power_tokens.get(target) else 0.0)
                out.append((gain - cost, target, False))
        out.sort(reverse=True)
        return out[:3]

    def vacate_cost(self, sit: Situation, area: str, leaving: int) -> float:
        """What marching ``leaving`` units out of ``area`` is likely to cost (control, 1.3)."""
        value = sit.value(area)
        danger = sit.danger(area)
        if sit.rules.areas[area].home_of == sit.me:
            return (0.1 + 0.6 * danger) * value
        if len(sit.units(area)) > leaving or leaving >= 2:
            return 0.3 * value * (0.5 + danger)
        if sit.rules.domain[area] == LAND and sit.state.power[sit.me] > 0:
            return 0.3 + 0.5 * danger * value
        return value

    def order_ideas(
        self, sit: Situation, area: str, attacked: set[str]
    ) -> list[tuple[float, str, str, str, str | None]]:
        """(score, area, order type, token wish, None) for every non-March order in ``area``."""
        s = sit.state
        me = sit.me
        rules = sit.rules
        value = sit.value(area)
        strength = sit.area_strength(area)
        threat = sit.threat(area)
        hold = sit.hold(area)
        ideas: list[tuple[float, str, str, str, str | None]] = []
        danger = sit.danger(area)
        if danger > 0:
            want = "best" if threat >= hold else "cheap"
            ideas.append((self.personality.caution * value * danger, area, DEFENSE, want, None))
        support = 0.0
        kinds = rules.kind(area).supports
        for other in board.neighbours(s, area):
            if rules.areas[other].kind not in kinds:
                continue
            if other in attacked:
                help_ = 0.8 + 0.5 * sit.area_strength(area, sit.is_castle(other))
                support = max(support, help_ + 0.2 * sit.value(other))
            elif sit.occupant(other) == me and sit.danger(other) > 0:
                need = sit.value(other) * sit.danger(other) * 0.5 * min(1.0, strength / 2)
                support = max(support, need)
        if strength > 0 and support > 0:
            ideas.append((support, area, "support", "best", None))
        raids = rules.kind(area).raids
        enemies = [
            n
            for n in board.neighbours(s, area)
            if sit.occupant(n) not in (None, me) and rules.areas[n].kind in raids
        ]
        if enemies:
            ideas.append((0.4 + 0.15 * min(3, len(enemies)), area, "raid", "cheap", None))
        gain = consolidate_yield(s, area, me)
        if gain > 0:
            score = self.personality.thrift * (0.7 * gain + (0.4 if s.power[me] < 4 else 0.0))
            ideas.append(
                (score * (0.4 if threat > hold else 1.0), area, CONSOLIDATE, "cheap", None)
            )
        if sit.is_castle(area) and self.can_muster(sit, area):
            score = 1.2 * rules.areas[area].castle * (1 + 0.5 * danger)
            ideas.append((score, area, CONSOLIDATE, "star", None))
        return ideas

    def filler_rank(self, sit: Situation) -> Callable[[str, Token], float]:
        """How well a leftover token suits an area no idea claimed (4.2 fills every area)."""

        def rank(area: str, token: Token) -> float:
            threatened = sit.danger(area) > 0
            pays = consolidate_yield(sit.state, area, sit.me) > 0
            order = {
                CONSOLIDATE: 0.2 if not pays else 1.0 if threatened else 3.0,
                DEFENSE: 3.0 if threatened else 2.0,
                "support": 1.5,
                "raid": 1.2,
                "march": 0.5,
            }
            return order.get(token["type"], 0.0) - 0.5 * token["star"] - 0.1 * token["bonus"]

        return rank

    def messenger_raven(self, sit: Situation, data: Data) -> Action:
        """Messenger Raven (4.4): swap in a Defense order where a revealed enemy March now
        threatens a valuable area, else look at the wildling card."""
        replacements = {(r.area, r.token) for r in legal.raven_replacements(data, sit.rules)}
        tokens = {t["id"]: t for t in legal.usable_tokens(data)}
        best: tuple[float, ReplaceOrder] | None = None
        for area, current in sorted(data["orders"].items()):
            if sit.rules.order_tokens[current].type in (DEFENSE, "march"):
                continue
            if self.revealed_threat(sit, area) < sit.hold(area):
                continue
            for token_id, token in tokens.items():
                if token["type"] == DEFENSE and (area, token_id) in replacements:
                    score = sit.value(area) + token["bonus"]
                    if best is None or score > best[0]:
                        best = (score, ReplaceOrder(area, token_id))
        if best is not None:
            return best[1]
        return Choose(LOOK if LOOK in data["options"] else NOTHING)

    def revealed_threat(self, sit: Situation, area: str) -> float:
        """The strongest revealed enemy March that can reach ``area`` (orders are public)."""
        tokens = sit.rules.order_tokens
        castle = sit.is_castle(area)
        threat = 0.0
        for origin, order in sit.state.orders.items():
            if order.house == sit.me or tokens[order.token].type != "march":
                continue
            if area in sit.reach.get(origin, ()):
                units = [u for u in sit.units(origin) if not u.routed]
                threat = max(threat, sit.strength(units, castle) + tokens[order.token].bonus)
        return threat


def plugin_order_ideas(
    sit: Situation, area: str, by_type: Mapping[str, list[Token]]
) -> list[tuple[float, str, str, str, str | None]]:
    """(score, area, order type, token wish, None) for the plugin order types whose tokens
    value an order in ``area`` (``OrderToken.ai_value``), e.g. an Iron Bank order."""
    kind = sit.rules.areas[area].kind
    ideas: list[tuple[float, str, str, str, str | None]] = []
    for type_, tokens in sorted(by_type.items()):
        defs = [sit.rules.order_tokens[t["id"]] for t in tokens]
        scores = [d.ai_value(sit.state, sit.me, area) for d in defs if d.ai_value and d.fits(kind)]
        if scores and max(scores) > 0:
            ideas.append((max(scores), area, type_, "cheap", None))
    return ideas


def pick_token(tokens: list[Token], want: str, room: int, used: set[str]) -> Token | None:
    """The token of one type that fits ``want``: ``best`` (highest bonus, a star if the star
    budget allows), ``cheap`` (lowest, unstarred first) or ``star`` (starred only)."""
    free = [t for t in tokens if t["id"] not in used and (not t["star"] or room > 0)]
    if want == "star":
        free = [t for t in free if t["star"]]
    if not free:
        return None
    if want == "best":
        return max(free, key=lambda t: (t["bonus"], t["star"], t["id"]))
    return min(free, key=lambda t: (t["star"], t["bonus"], t["id"]))
