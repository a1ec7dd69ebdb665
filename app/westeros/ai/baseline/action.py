"""The baseline AI's Action phase (RULES.md 5): raids, marches and Consolidate Power."""

from __future__ import annotations

from ...engine import board, march
from ...engine.actions import Action
from ...engine.consolidate import ResolveConsolidate
from ...engine.march import HOUSE, NEUTRAL, Declined, ResolveMarch
from ...engine.raid import ResolveRaid
from ...engine.state import Unit
from .. import legal
from ..analysis import DEFENSE, Situation, win_chance
from .policy import CONSOLIDATE, UNIT_WORTH, Data, Policy


class ActionPolicy(Policy):
    """Action phase (5): the raid that hurts most, the best-scoring march, the best yield."""

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
        with board.unchanged(sit.state):
            for area, info in sorted(data["marches"].items()):
                own = self.march_plans(sit, area, info, legal.declined(data))
                plans.append(max(own, key=lambda p: p[0]))
        best = max(plans, key=lambda p: p[0])
        if best[0] > 0.05:
            return best[1]
        worst = min(plans, key=lambda p: p[0])
        return ResolveMarch(worst[1].area, ())

    def march_plans(
        self, sit: Situation, area: str, info: Data, refused: Declined = ()
    ) -> list[tuple[float, ResolveMarch]]:
        """Scored legal plans for the March order in ``area`` (doing nothing scores 0); the
        engine's own check (``march.problem``) decides which are legal, its reach worked out
        once for the unchanged state (``board.unchanged``)."""
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
        with board.unchanged(state):
            for moves in candidates:
                for leave in (False, True):
                    plan = ResolveMarch(area, moves, leave)
                    if march.problem(state, sit.me, plan, refused) is None:
                        score = self.score_march(sit, area, info, moves, leave) + self.noise()
                        plans.append((score, plan))
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
