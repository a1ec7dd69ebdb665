"""The baseline AI: plays every decision legally and sensibly from its own view only.

It defends threatened castles with Defense orders, marches on weaker neighbours, empty areas and
beatable neutral forces, supports its own likely combats, consolidates where safe, raids nearby
enemy orders, musters where units are needed, bids a share of its power, and chooses house cards
by the stakes: the cheapest card that wins, the weakest when the fight is lost or won anyway.
Every figure is a heuristic from ``analysis.Situation``; every action is built from the prompt's
data (``legal``), and any prompt it does not know gets ``legal.fallback_action``."""

from __future__ import annotations

import dataclasses
import math
import random
from collections import defaultdict
from collections.abc import Callable, Mapping
from typing import Any

from ..engine import board
from ..engine.actions import Action, Bid, Choose, SelectArea, SelectUnits
from ..engine.bidding import TrackOrder
from ..engine.combat.context import Combat
from ..engine.combat.strength import totals, victor
from ..engine.consolidate import ResolveConsolidate, consolidate_yield
from ..engine.content import LAND, Ruleset
from ..engine.march import HOUSE, NEUTRAL, ResolveMarch
from ..engine.mustering import DONE, MusterUnit
from ..engine.planning import LOOK, NOTHING, ReplaceOrder
from ..engine.raid import ResolveRaid
from ..engine.state import TRACKS, Unit
from . import legal
from .analysis import DEFENSE, FIEFDOMS, Situation, win_chance

Data = Mapping[str, Any]
Token = Mapping[str, Any]
CONSOLIDATE = "consolidate_power"
MIN_MARCH_GAIN = 0.4
TRACK_WEIGHT = {"iron_throne": 1.0, "fiefdoms": 0.8, "kings_court": 1.1}
BID_SHARE = {"iron_throne": 0.3, "fiefdoms": 0.25, "kings_court": 0.45}
UNIT_WORTH = {"footman": 1.0, "knight": 2.0, "siege_engine": 1.5, "ship": 1.1}
CALM_WILDLING_CARDS = frozenset({"silence-at-the-wall"})
HOLD_OPTIONS = ("keep_on_top", "move_to_bottom")


@dataclasses.dataclass(frozen=True, slots=True)
class Personality:
    """Weights that colour the baseline AI's choices (AI personalities, DESIGN §3):
    ``aggression`` scales the gain of attacks, ``caution`` the value of defence, ``ambition``
    the share of power bid on the influence tracks, ``thrift`` the value of gathering power with
    Consolidate Power orders (5.6.1)."""

    id: str = "baseline"
    name: str = "Baseline"
    aggression: float = 1.0
    caution: float = 1.0
    ambition: float = 1.0
    thrift: float = 1.0


BASELINE = Personality()


class BaselineBot:
    """The sensible baseline AI (see module docstring). Deterministic for a given ``seed``."""

    name = "baseline"

    def __init__(self, seed: int = 0, personality: Personality = BASELINE) -> None:
        self.rnd = random.Random(seed)
        self.personality = personality

    def decide(self, view: Data, rules: Ruleset, budget: float) -> Action:
        """Answer ``view["prompt"]`` from the view alone (protocol.Player)."""
        prompt = view["prompt"]
        handler = HANDLERS.get(prompt["kind"])
        if handler is None:
            plugin = rules.ai_answers.get(prompt["kind"])  # a plugin's prompt (ports, Tides)
            if plugin is not None:
                return plugin.answer(view, rules, self.rnd)
            return legal.fallback_action(view, rules)
        return handler(self, Situation(view, rules), prompt["data"])

    def noise(self) -> float:
        """A tiny seeded jitter that breaks ties between equally good choices."""
        return self.rnd.random() * 1e-3

    # ================================================================== Planning (4)
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

    def can_muster(self, sit: Situation, area: str) -> bool:
        """Could a unit be mustered in ``area`` now (pool 1.2.2, supply 1.7)?"""
        s = sit.state
        here = {area: len(sit.units(area)) + 1}
        land = any(
            board.available(s, sit.me, t.id) > 0
            for t in sit.rules.unit_types.values()
            if t.domain == LAND and t.musterable
        )
        return land and board.within_supply(s, sit.me, here)

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

    # ================================================================== Action phase (5)
    def raid(self, sit: Situation, data: Data) -> Action:
        """Raid (5.2): remove the enemy order that hurts most (Consolidate Power pillages 1 PT;
        Support next to my areas; Defense where I march); no target if none is worth it."""
        tokens = sit.rules.order_tokens
        mine_nearby = {
            n for a in sit.state.units if sit.occupant(a) == sit.me for n in sit.reach.get(a, ())
        }
        best: tuple[float, ResolveRaid] | None = None
        for area, raid in sorted(data["raids"].items()):
            options = [(0.0, ResolveRaid(area))]
            for target in raid["targets"]:
                kind = tokens[sit.state.orders[target].token].type
                score = {CONSOLIDATE: 2.0, "support": 1.2, DEFENSE: 1.0, "raid": 0.7}.get(kind, 0.5)
                if kind in ("support", DEFENSE) and target in mine_nearby:
                    score += 0.6
                options.append((score + self.noise(), ResolveRaid(area, target)))
            top = max(options, key=lambda o: o[0])
            if best is None or top[0] > best[0]:
                best = top
        assert best is not None
        return best[1]

    def march(self, sit: Situation, data: Data) -> Action:
        """March (5.3): the best-scoring legal plan over all March orders; with nothing worth
        doing, the least useful order is removed first."""
        plans: list[tuple[float, ResolveMarch]] = []
        for area, info in sorted(data["marches"].items()):
            own = self.march_plans(sit, area, info)
            plans.append(max(own, key=lambda p: p[0]))
        best = max(plans, key=lambda p: p[0])
        if best[0] > 0.05:
            return best[1]
        worst = min(plans, key=lambda p: p[0])
        return ResolveMarch(worst[1].area, ())

    def march_plans(
        self, sit: Situation, area: str, info: Data
    ) -> list[tuple[float, ResolveMarch]]:
        """Scored legal plans for the March order in ``area`` (doing nothing scores 0)."""
        rules = sit.rules
        units = list(info["units"])
        reach = legal.entries(info)
        plans = [(0.0, ResolveMarch(area, ()))]
        candidates: list[legal.Moves] = []
        for domain in sorted({rules.unit_types[t].domain for t in units}):
            group = sorted(
                (t for t in units if rules.unit_types[t].domain == domain),
                key=lambda t: UNIT_WORTH.get(t, 1.0),
            )
            groups = [tuple(group)] + ([tuple(group[1:])] if len(group) >= 2 else [])
            free = sorted(
                (d for d, e in reach.get(domain, {}).items() if e["combat"] is None),
                key=lambda d: -sit.value(d) if sit.control[d] != sit.me else 0.0,
            )
            for dst in reach.get(domain, {}):
                for g in groups:
                    candidates.append(((dst, g),))
                    rest = tuple(group[: len(group) - len(g)])
                    for other in [d for d in free if d != dst][:2]:
                        if rest and sit.control[other] != sit.me:
                            candidates.append(tuple(sorted(((dst, g), (other, rest)))))
        state = sit.state
        for moves in candidates:
            for leave in (False, True):
                if legal.march_problem(state, sit.me, area, info, moves, leave) is None:
                    score = self.score_march(sit, area, info, moves, leave) + self.noise()
                    plans.append((score, ResolveMarch(area, moves, leave)))
        return plans

    def score_march(
        self, sit: Situation, area: str, info: Data, moves: legal.Moves, leave: bool
    ) -> float:
        """Value of a legal march plan: areas taken, combats weighed by their chances, the
        origin's control and safety (1.3, 5.3.9)."""
        rules = sit.rules
        me = sit.me
        reach = legal.entries(info)
        aggression = self.personality.aggression
        score = 0.0
        moved: list[str] = []
        for dst, types in moves:
            moved.extend(types)
            entry = reach[rules.unit_types[types[0]].domain][dst]
            if entry["combat"] == NEUTRAL:
                score += aggression * (sit.value(dst) + 0.5)
            elif entry["combat"] == HOUSE:
                margin = sit.battle_margin(area, dst, types, info["bonus"])
                p = win_chance(margin if margin is not None else 0.0)
                gain = p * (sit.value(dst) + 0.3 * len(sit.units(dst)))
                loss = (1 - p) * (0.6 * sum(UNIT_WORTH.get(t, 1.0) for t in types) + 0.5)
                score += aggression * gain - loss
            elif sit.control[dst] != me:
                score += sit.value(dst) + (0.3 if sit.state.power_tokens.get(dst) else 0.0)
                arriving = sit.strength(Unit(me, t) for t in types)
                score -= 0.1 * max(0.0, sit.threat(dst) - arriving)
            elif sit.occupant(dst) == me:
                score += min(1.0, 0.5 * sit.danger(dst) * len(types))
        left = len(sit.units(area)) - len(moved)
        if left == 0:
            if leave:
                score -= 0.25
            elif sit.control[area] == me and rules.areas[area].home_of != me:
                score -= sit.value(area)
            else:
                score -= 0.3 * sit.danger(area) * sit.value(area)
        else:
            lost = sum(UNIT_WORTH.get(t, 1.0) for t in moved)
            score -= sit.value(area) * (sit.danger(area, extra=-lost) - sit.danger(area))
        return score

    def consolidate_power(self, sit: Situation, data: Data) -> Action:
        """Consolidate Power (5.6): muster with a starred order in a castle where units can be
        raised (5.6.2), else take the largest yield (5.6.1)."""
        best: tuple[float, ResolveConsolidate] | None = None
        for area, order in sorted(data["orders"].items()):
            options = [(0.8 * self.personality.thrift * order["yield"], ResolveConsolidate(area))]
            if order["may_muster"] and self.can_muster(sit, area):
                points = sit.rules.areas[area].castle
                options.append(
                    (1.2 * points * (1 + sit.danger(area)), ResolveConsolidate(area, True))
                )
            for option in options:
                if best is None or option[0] > best[0]:
                    best = option
        assert best is not None
        return best[1]

    # ================================================================== Mustering (3.5)
    def muster(self, sit: Situation, data: Data) -> Action:
        """Mustering (3.5): the recruit or upgrade worth most per point — knights and footmen
        where the castle is threatened, siege engines beside enemy castles, ships where enemy
        ships are near or my fleet is small; done when nothing is worth a point."""
        area = data["area"]
        danger = sit.danger(area)
        siege = self.siege_targets(sit, area)
        fleet = sum(
            len(u)
            for a, u in sit.state.units.items()
            if u[0].house == sit.me and sit.rules.domain[a] != LAND
        )
        options: list[tuple[float, float, Action]] = []
        for recruit in data["recruits"]:
            unit = recruit["unit"]
            for dst in recruit["areas"]:
                worth = self.recruit_worth(sit, unit, dst, danger, siege, fleet)
                options.append((worth / recruit["cost"], worth, MusterUnit(unit, dst)))
        for up in data["upgrades"]:
            gain = self.recruit_worth(sit, up["to"], area, danger, siege, fleet)
            gain -= self.recruit_worth(sit, up["from"], area, danger, siege, fleet)
            options.append((gain / up["cost"], gain, MusterUnit(up["to"], area, up["from"])))
        if not options:
            return Choose(DONE)
        rate, _, action = max(options, key=lambda o: (o[0], o[1]))
        return action if rate >= 0.2 else Choose(DONE)

    def siege_targets(self, sit: Situation, area: str) -> int:
        """Enemy or neutral castle areas next to ``area`` (where siege engines pay off)."""
        return sum(
            1
            for n in board.neighbours(sit.state, area)
            if sit.is_castle(n) and sit.control[n] != sit.me and sit.rules.domain[n] == LAND
        )

    def recruit_worth(
        self, sit: Situation, unit: str, dst: str, danger: float, siege: int, fleet: int
    ) -> float:
        """How useful one more ``unit`` in ``dst`` is."""
        kind = sit.rules.unit_types[unit]
        if kind.domain != LAND:
            enemy_ships = any(
                sit.occupant(n) not in (None, sit.me) and sit.rules.domain[n] != LAND
                for n in board.neighbours(sit.state, dst)
            )
            size = 0.3 if fleet < 3 else -0.2 if fleet > 5 else 0.0
            return 1.0 + (0.4 if enemy_ships else 0.0) + size
        if kind.vs_castle is not None:
            return 2.2 if siege else 0.3
        return kind.strength * (1.0 + 0.5 * danger)

    # ================================================================== Bidding (3.6, 7.2)
    def bid(self, sit: Situation, data: Data) -> Action:
        """Clash of Kings (3.6): a share of the available power, more on King's Court and the
        Iron Throne; the whole track for one more than anyone else can bid when that is cheap."""
        power = data["max"]
        if power <= 0:
            return Bid(0)
        others = [sit.state.power[h] for h in sit.state.houses if h != sit.me]
        richest = max(others, default=0)
        reserve = 2 if sit.state.threat >= 8 else 0
        spend = max(0, power - reserve)
        share = BID_SHARE.get(data["track"], 0.3) * self.personality.ambition
        amount = round(spend * share)
        if richest == 0:
            amount = 1
        elif richest + 1 <= 0.6 * spend:
            amount = richest + 1
        return Bid(max(data["min"], min(power, amount)))

    def wildling_bid(self, sit: Situation, data: Data) -> Action:
        """Wildling attack (7.2): a fair share of the attack's strength when the Night's Watch
        can win, a token not to be the lowest bidder when it cannot; nothing when the top card
        is known to be harmless."""
        power = data["max"]
        strength = data["strength"]
        if power <= 0 or strength <= 0 or sit.view.get("wildling_top") in CALM_WILDLING_CARDS:
            return Bid(0)
        houses = sit.state.houses
        total = sum(sit.state.power[h] for h in houses)
        if total < strength:
            return Bid(min(power, 1))
        fair = math.ceil(strength / len(houses))
        return Bid(min(power, fair + (1 if power >= fair + 4 else 0)))

    def order_ties(self, sit: Situation, data: Data) -> Action:
        """Ties on a track (3.6.3): myself first, then the houses with the fewest castles."""
        order: list[str] = []
        for group in data["groups"]:
            order.extend(
                sorted(group["houses"], key=lambda h: (h != sit.me, sit.castles.get(h, 0), h))
            )
        return TrackOrder(tuple(order))

    # ================================================================== Combat (5.4)
    def wins(
        self, sit: Situation, combat: Combat, which: str, mine: str | None, theirs: str | None
    ) -> bool:
        """Would ``which`` win ``combat`` with card ``mine`` against ``theirs`` (5.4.7-5.4.8),
        the unused Valyrian Steel Blade added for its holder (5.4.6)?"""
        other = combat.other(which)
        trial = combat.with_side(which, dataclasses.replace(combat.side(which), card=mine))
        trial = trial.with_side(other, dataclasses.replace(trial.side(other), card=theirs))
        s = sit.state
        blade = None
        if not s.blade_used:
            blade = trial.side_of(s.tracks[FIEFDOMS][0])
        return victor(s, trial, *totals(s, trial, blade)) == which

    def choose_house_card(self, sit: Situation, data: Data) -> Action:
        """House card (5.4.3; also a forced replacement, 5.4.4): weigh each card's chance to win
        against the opponent's likely cards by the stakes, minus what playing it costs — the
        cheapest sure winner, the weakest card in a lost fight."""
        combat = sit.state.combat
        cards = sit.rules.house_cards
        which = data["side"]
        other = combat.other(which)
        enemy = combat.side(other)
        opp: list[str | None] = (
            [enemy.card] if enemy.card is not None else list(sit.state.hands.get(enemy.house, ()))
        )
        if not opp:
            opp = [None]
        weight = {o: 1.0 + (cards[o].strength if o else 0) for o in opp}
        stake = 2.0 + sit.value(combat.area)
        best: tuple[float, str] | None = None
        for card in data["cards"]:
            c = cards[card]
            p = sum(weight[o] for o in opp if self.wins(sit, combat, which, card, o))
            p /= sum(weight.values())
            worth = c.strength + 0.25 * (c.swords + c.fortifications)
            score = p * stake - 0.35 * worth + 0.15 * (c.swords * p + c.fortifications * (1 - p))
            score += self.noise()
            if best is None or score > best[0]:
                best = (score, card)
        assert best is not None
        return Choose(best[1])

    def declare_support(self, sit: Situation, data: Data) -> Action:
        """Support (5.4.1): help the side whose opponent is the bigger danger — never the house
        leading the game; with no difference, the defender (no change of control)."""

        def danger(house: str) -> float:
            near = sum(
                sit.attack_potential(house, a) for a in sit.state.units if sit.occupant(a) == sit.me
            )
            return sit.castles.get(house, 0) + 0.1 * near

        attacker, defender = data["attacker"], data["defender"]
        gap = danger(attacker) - danger(defender)
        side, house = ("defender", defender) if gap >= 0 else ("attacker", attacker)
        if house == sit.leader or (abs(gap) < 0.3 and house == attacker):
            return Choose("none")
        return Choose(side)

    def destroy_units(self, sit: Situation, data: Data) -> Action:
        """Destroy units of my choice (casualties 5.4.9, wildlings 7.3, Tides 10.4): the least
        valuable ones, never emptying a valuable area if another choice exists."""
        return SelectUnits(self.cheapest(sit, list(data["units"]), data["count"]))

    def cheapest(self, sit: Situation, units: list[Any], count: int) -> tuple[tuple[str, str], ...]:
        """``count`` of ``units`` ((area, type) pairs, one per unit) that cost me least."""
        left = {a: len(sit.units(a)) for a, _ in units}
        chosen: list[tuple[str, str]] = []
        pool = [(a, t) for a, t in units]

        def cost(pair: tuple[str, str]) -> float:
            area, unit = pair
            value = UNIT_WORTH.get(unit, 1.0) * (1 + 0.5 * sit.danger(area))
            if left[area] == 1 and sit.rules.areas[area].home_of != sit.me:
                value += sit.value(area)
            return value

        for _ in range(count):
            pick = min(pool, key=cost)
            pool.remove(pick)
            chosen.append(pick)
            left[pick[0]] -= 1
        return tuple(chosen)

    def reconcile_supply(self, sit: Situation, data: Data) -> Action:
        """Reconcile (3.4.3): destroy the unit that brings my armies closest to the limit."""
        allowed = list(data["allowed"])
        sizes = {a: len(u) for a, u in sit.state.units.items() if u[0].house == sit.me}

        def excess(new: dict[str, int]) -> int:
            armies = sorted((n for n in new.values() if n >= 2), reverse=True)
            over = sum(max(0, n - cap) for n, cap in zip(armies, allowed, strict=False))
            return over + sum(n - 1 for n in armies[len(allowed) :])

        def key(pair: list[str]) -> tuple[int, float]:
            area, unit = pair
            after = excess({**sizes, area: sizes[area] - 1})
            return after, UNIT_WORTH.get(unit, 1.0) + sit.value(area) * 0.1

        area, unit = min(data["units"], key=key)
        return SelectUnits(((area, unit),))

    # ================================================================== areas and options
    def choose_area(self, sit: Situation, data: Data) -> Action:
        """Area choices of cards and retreats: see the per-reason helpers."""
        areas = list(data["areas"])
        reason = data.get("reason", "")
        if reason.startswith("retreat"):
            return SelectArea(self.retreat(sit, areas))
        if reason in ("cersei-lannister", "queen-of-thorns"):
            return SelectArea(max(areas, key=lambda a: self.order_harm(sit, a)))
        combat = sit.state.combat
        if combat is not None and combat.area in areas:
            return SelectArea(combat.area)
        return SelectArea(areas[0])

    def retreat(self, sit: Situation, areas: list[str]) -> str:
        """Retreat (5.4.10): my units go where they are safest and hold most; choosing for the
        opponent (Robb Stark), the area where my armies can reach them best."""
        combat = sit.state.combat
        loser = combat.side(combat.other(combat.winner or "attacker")).house
        if loser == sit.me:
            return max(
                areas,
                key=lambda a: (
                    (sit.value(a) if sit.control[a] == sit.me else 0.0)
                    + (0.5 if sit.occupant(a) == sit.me else 0.0)
                    - 0.4 * sit.threat(a)
                ),
            )
        return max(areas, key=lambda a: sit.attack_potential(sit.me, a) - 0.2 * sit.value(a, loser))

    def order_harm(self, sit: Situation, area: str) -> float:
        """How much removing the enemy order in ``area`` helps me (Cersei, Queen of Thorns)."""
        order = sit.state.orders[area]
        kind = sit.rules.order_tokens[order.token].type
        near = any(sit.occupant(n) == sit.me for n in board.neighbours(sit.state, area))
        score = {"march": 1.5, "support": 1.3, CONSOLIDATE: 1.2, DEFENSE: 0.9, "raid": 0.7}.get(
            kind, 0.5
        )
        if kind == "march":
            score += 0.3 * sit.area_strength(area)
        return score + (0.8 if near else 0.0)

    def choose_option(self, sit: Situation, data: Data) -> Action:
        """Named options of cards and rules (``reason`` says which); unknown ones: a passive
        option if offered."""
        options = list(data["options"])
        reason = data.get("reason", "")
        for prefix, choose in OPTION_CHOOSERS:
            if reason.startswith(prefix):
                pick = choose(self, sit, options)
                if pick in options:
                    return Choose(pick)
        passive = [o for o in legal.PASSIVE_OPTIONS if o in options]
        return Choose(passive[0] if passive else options[0])

    def upgrade_units(self, sit: Situation, data: Data) -> Action:
        """Crow Killers (7.3.3): upgrade as many footmen as allowed, most endangered first."""
        units = sorted(data["units"], key=lambda p: -sit.danger(p[0]) - 0.1 * sit.value(p[0]))
        return SelectUnits(tuple((a, t) for a, t in units[: data["max"]]))

    def replace_units(self, sit: Situation, data: Data) -> Action:
        """Crow Killers (7.3.3): downgrade the knights in the safest areas."""
        units = sorted(data["units"], key=lambda p: sit.danger(p[0]) + 0.1 * sit.value(p[0]))
        return SelectUnits(tuple((a, t) for a, t in units[: data["count"]]))

    def muster_area(self, sit: Situation, data: Data) -> Action:
        """The Horde Descends (7.3.8): muster in the strongest, most endangered castle."""
        areas = data["areas"]
        return SelectArea(max(areas, key=lambda a: sit.rules.areas[a].castle * (1 + sit.danger(a))))

    def destroy_area(self, sit: Situation, data: Data) -> Action:
        """The Horde Descends (7.3.8): lose the two units where it hurts least."""
        return SelectArea(min(data["areas"], key=lambda a: sit.value(a) * (0.3 + sit.danger(a))))


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


# ---------------------------------------------------------------------------------- options


def _position_gain(sit: Situation, track: str) -> float:
    return sit.state.tracks[track].index(sit.me) * TRACK_WEIGHT.get(track, 1.0)


def _king_beyond_the_wall(bot: BaselineBot, sit: Situation, options: list[str]) -> str:
    """7.3.6: to the top of the track where I climb most; to the bottom where I lose least."""
    if "iron_throne" in options:
        return max(options, key=lambda t: _position_gain(sit, t))
    last = len(sit.state.houses) - 1
    return min(
        options,
        key=lambda t: (last - sit.state.tracks[t].index(sit.me)) * TRACK_WEIGHT.get(t, 1.0),
    )


def _doran(bot: BaselineBot, sit: Situation, options: list[str]) -> str:
    """Doran Martell (8.2): drop the opponent on the track where he falls furthest."""
    combat = sit.state.combat
    enemy = combat.side(combat.other(combat.side_of(sit.me) or "attacker")).house
    last = len(sit.state.houses) - 1
    return max(
        options,
        key=lambda t: (last - sit.state.tracks[t].index(enemy)) * TRACK_WEIGHT.get(t, 1.0),
    )


def _preemptive_raid(bot: BaselineBot, sit: Situation, options: list[str]) -> str:
    """7.3.2: lose two units when I have plenty and hold a dominance token, else drop on the
    track. As the Iron Throne holder picking the loser's track (the prompt does not name the
    loser): the track I value least if all options are my best positions, else the one that
    hurts most."""
    if "drop_track" in options:
        units = sum(len(u) for u in sit.state.units.values() if u[0].house == sit.me)
        best = min(sit.state.tracks[t].index(sit.me) for t in TRACKS)
        return "destroy_units" if best == 0 and units >= 5 else "drop_track"
    mine = {sit.state.tracks[t].index(sit.me) for t in options}
    best = min(sit.state.tracks[t].index(sit.me) for t in TRACKS)
    if mine == {best}:
        return min(options, key=lambda t: TRACK_WEIGHT.get(t, 1.0))
    return max(options, key=lambda t: TRACK_WEIGHT.get(t, 1.0))


def _wildling_tie(bot: BaselineBot, sit: Situation, options: list[str]) -> str:
    """7.2.3: the reward to myself or the weakest house, the penalty to the leader."""
    if "lowest" in sit.view["prompt"]["data"]["reason"]:
        others = [h for h in options if h != sit.me]
        return max(others, key=lambda h: (sit.castles.get(h, 0), h))
    if sit.me in options:
        return sit.me
    return min(options, key=lambda h: (sit.castles.get(h, 0), h))


def _throne_of_blades(bot: BaselineBot, sit: Situation, options: list[str]) -> str:
    """3.4.5: Supply or Mustering if it helps me more than the others, else nothing."""
    s = sit.state
    houses = s.houses
    points = {
        h: sum(sit.rules.areas[a].castle for a in sit.rules.castle_areas if sit.control[a] == h)
        for h in houses
    }
    rise = {h: board.barrels(s, h) - s.supply[h] for h in houses}
    gains = {
        "mustering": 0.5 * (points[sit.me] - sum(points.values()) / len(houses)),
        "supply": rise[sit.me] - sum(rise.values()) / len(houses),
    }
    best = max(gains, key=lambda o: gains[o])
    return best if gains[best] > 0 else NOTHING


def _dark_wings(bot: BaselineBot, sit: Situation, options: list[str]) -> str:
    """3.4.8: Game of Thrones if my crowns beat the average, Clash of Kings if my power does."""
    s = sit.state
    houses = s.houses
    areas = sit.rules.areas
    crowns = {h: sum(areas[a].crowns for a in areas if sit.control[a] == h) for h in houses}
    gains = {
        "game_of_thrones": crowns[sit.me] - sum(crowns.values()) / len(houses),
        "clash_of_kings": (s.power[sit.me] - sum(s.power.values()) / len(houses)) / 3,
    }
    best = max(gains, key=lambda o: gains[o])
    return best if gains[best] > 0 else NOTHING


def _put_to_the_sword(bot: BaselineBot, sit: Situation, options: list[str]) -> str:
    """3.4.14: forbid March +1 when my castles are threatened, else forbid Defense."""
    mine = [a for a in sit.rules.castle_areas if sit.control[a] == sit.me]
    return "no_march+1" if any(sit.danger(a) > 0.3 for a in mine) else "no_defense"


def _combat_cards(bot: BaselineBot, sit: Situation) -> tuple[Combat, str, str]:
    combat = sit.state.combat
    which = combat.side_of(sit.me) or "attacker"
    return combat, which, combat.other(which)


def _aeron(bot: BaselineBot, sit: Situation, options: list[str]) -> str:
    """Aeron Damphair (8.2): pay 2 PT only if another card turns a loss into a win."""
    combat, which, other = _combat_cards(bot, sit)
    theirs = combat.side(other).card
    if bot.wins(sit, combat, which, combat.side(which).card, theirs):
        return "no"
    hand = sit.state.hands.get(sit.me, ())
    return "yes" if any(bot.wins(sit, combat, which, c, theirs) for c in hand) else "no"


def _tyrion(bot: BaselineBot, sit: Situation, options: list[str]) -> str:
    """Tyrion Lannister (8.2): cancel the opponent's card only while it beats mine and a
    replacement from his hand might not."""
    combat, which, other = _combat_cards(bot, sit)
    mine, theirs = combat.side(which).card, combat.side(other).card
    if bot.wins(sit, combat, which, mine, theirs):
        return "no"
    rest = sit.state.hands.get(combat.side(other).house, ())
    return "yes" if not rest or any(bot.wins(sit, combat, which, mine, c) for c in rest) else "no"


def _strongest(sit: Situation, cards: list[str]) -> str:
    defs = sit.rules.house_cards
    real = [c for c in cards if c in defs]
    return max(real, key=lambda c: (defs[c].strength, defs[c].swords, c))


def _patchface(bot: BaselineBot, sit: Situation, options: list[str]) -> str:
    """Patchface (8.2): discard the opponent's strongest card."""
    return _strongest(sit, options)


def _mammoth(bot: BaselineBot, sit: Situation, options: list[str]) -> str:
    """Mammoth Riders (7.3.7): take back my strongest discarded card."""
    return _strongest(sit, options)


def _milkwater(bot: BaselineBot, sit: Situation, options: list[str]) -> str:
    """Massing on the Milkwater (7.3.5): discard my weakest card."""
    defs = sit.rules.house_cards
    return min(options, key=lambda c: (defs[c].strength, defs[c].swords, c))


def _raven_card(bot: BaselineBot, sit: Situation, options: list[str]) -> str:
    """4.4: keep a harmless wildling card on top, bury any other."""
    keep, bottom = HOLD_OPTIONS
    return keep if sit.view.get("wildling_top") in CALM_WILDLING_CARDS else bottom


OPTION_CHOOSERS: tuple[tuple[str, Callable[[BaselineBot, Situation, list[str]], str]], ...] = (
    ("valyrian-steel-blade", lambda bot, sit, options: "use"),
    ("tyrion-lannister", _tyrion),
    ("aeron-damphair", _aeron),
    ("doran-martell", _doran),
    ("patchface", _patchface),
    ("A Throne of Blades", _throne_of_blades),
    ("Dark Wings", _dark_wings),
    ("Put to the Sword", _put_to_the_sword),
    ("Preemptive Raid", _preemptive_raid),
    ("A King Beyond the Wall", _king_beyond_the_wall),
    ("Mammoth Riders", _mammoth),
    ("Massing on the Milkwater", _milkwater),
    ("7.2.3", _wildling_tie),
    ("4.4", _raven_card),
)

HANDLERS: dict[str, Callable[[BaselineBot, Situation, Data], Action]] = {
    "place_orders": BaselineBot.place_orders,
    "messenger_raven": BaselineBot.messenger_raven,
    "raid": BaselineBot.raid,
    "march": BaselineBot.march,
    "consolidate_power": BaselineBot.consolidate_power,
    "muster": BaselineBot.muster,
    "bid": BaselineBot.bid,
    "wildling_bid": BaselineBot.wildling_bid,
    "order_ties": BaselineBot.order_ties,
    "choose_house_card": BaselineBot.choose_house_card,
    "declare_support": BaselineBot.declare_support,
    "destroy_units": BaselineBot.destroy_units,
    "reconcile_supply": BaselineBot.reconcile_supply,
    "choose_area": BaselineBot.choose_area,
    "retreat": BaselineBot.choose_area,
    "choose_option": BaselineBot.choose_option,
    "use_blade": BaselineBot.choose_option,
    "upgrade_units": BaselineBot.upgrade_units,
    "replace_units": BaselineBot.replace_units,
    "muster_area": BaselineBot.muster_area,
    "destroy_area": BaselineBot.destroy_area,
}
