"""The Standard AI's Action phase (RULES.md 5): raids that break the enemy's plans and marches
scored with castle values and the orders now on the board (5.4.1-5.4.2 via
``Situation.battle_margin``, legality from ``march.problem``)."""

from __future__ import annotations

from ...engine import board
from ...engine.actions import Action
from ...engine.march import HOUSE, NEUTRAL
from ...engine.raid import ResolveRaid
from ...engine.state import Unit
from .. import legal
from ..analysis import DEFENSE, SUPPORT, Situation, win_chance
from ..baseline.action import ActionPolicy
from ..baseline.policy import CONSOLIDATE, UNIT_WORTH, Data
from .planning import MARCH, RAID, StandardPlanning, last_round
from .threats import ThreatMap, threat_map


class StandardAction(StandardPlanning, ActionPolicy):
    """Action phase (5): raids against Support next to my attacks and Consolidate Power;
    marches for castles."""

    def raid(self, sit: Situation, data: Data) -> Action:
        """Raid (5.2): an enemy Support next to an area my March orders can reach (it would
        count against me, 5.4.1) first, then Consolidate Power (1 PT pillaged, 5.2.2), Defense
        where I march, Raids; no target when none is worth it."""
        s = sit.state
        tokens = sit.rules.order_tokens
        marching = [a for a, o in s.orders.items() if o.house == sit.me and _type(sit, a) == MARCH]
        aimed = {t for a in marching for t in sit.reach.get(a, ())}
        best: tuple[float, ResolveRaid] | None = None
        for area, raid in sorted(data["raids"].items()):
            options = [(0.0, ResolveRaid(area))]
            for target in raid["targets"]:
                kind = tokens[s.orders[target].token].type
                score = {CONSOLIDATE: 1.8, SUPPORT: 1.0, DEFENSE: 0.8, RAID: 0.9}.get(kind, 0.4)
                if kind == SUPPORT and any(n in aimed for n in board.neighbours(s, target)):
                    score += 1.5
                if kind == DEFENSE and target in aimed:
                    score += 1.2
                score += 0.2 * tokens[s.orders[target].token].star
                options.append((score + self.noise(), ResolveRaid(area, target)))
            top = max(options, key=lambda o: o[0])
            if best is None or top[0] > best[0]:
                best = top
        assert best is not None
        return best[1]

    def score_march(
        self, sit: Situation, area: str, info: Data, moves: legal.Moves, leave: bool
    ) -> float:
        """Value of a legal march plan: areas taken (castles most), combats weighed by their
        chance on the board as it stands, the origin's control and safety (1.3, 5.3.9)."""
        rules = sit.rules
        me = sit.me
        threats = threat_map(sit)
        reach = legal.entries(info)
        aggression = self.personality.aggression
        score = 0.0
        moved: list[str] = []
        for dst, types in moves:
            moved.extend(types)
            entry = reach[rules.unit_types[types[0]].domain][dst]
            value = self.target_value(sit, dst)
            if entry["combat"] == NEUTRAL:
                score += aggression * (value + 0.5)
            elif entry["combat"] == HOUSE:
                margin = sit.battle_margin(area, dst, types, info["bonus"])
                p = win_chance(margin if margin is not None else 0.0)
                gain = p * (value + 0.4 * len(sit.units(dst)))
                worth = 0.0 if last_round(sit) else sum(UNIT_WORTH.get(t, 1.0) for t in types)
                loss = (1 - p) * (0.7 * worth + 0.5)
                score += aggression * gain - loss
            elif sit.control[dst] != me:
                score += 0.9 * value + (0.4 if sit.state.power_tokens.get(dst) else 0.0)
                arriving = sit.strength(Unit(me, t) for t in types)
                score -= 0.12 * max(0.0, threats.attack_on(dst, arriving))
            elif sit.occupant(dst) == me:
                score += min(1.0, 0.4 * max(0.0, threats.gap(dst) + 1) * len(types))
        left = len(sit.units(area)) - len(moved)
        value = sit.value(area)
        if left == 0:
            risk = self.loss_risk(sit, threats, area, 0.0)
            if leave:
                score -= 0.2 + 0.5 * risk * value
            elif sit.control[area] == me and rules.areas[area].home_of != me:
                score -= value
            else:
                score -= risk * value
        else:
            staying = sit.area_strength(area) - sit.strength(Unit(me, t) for t in moved)
            score -= value * (self.loss_risk(sit, threats, area, staying) - sit.danger(area))
        return score

    def loss_risk(self, sit: Situation, threats: ThreatMap, area: str, staying: float) -> float:
        """0..1: how likely I lose ``area`` with ``staying`` strength left there (garrison and
        neighbouring support counted), by the threat map."""
        threat = threats.threat(area)
        if threat <= 0:
            return 0.0
        hold = staying + sit.garrison(area, sit.me) + threats.support(area, sit.me, exclude=area)
        return min(1.0, max(0.0, (threat - hold + 1.5) / 3))


def _type(sit: Situation, area: str) -> str:
    return sit.rules.order_tokens[sit.state.orders[area].token].type
