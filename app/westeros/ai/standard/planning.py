"""The Standard AI's Planning phase (RULES.md 4): orders placed as one plan.

1. Attacks: every army's reachable targets are scored — castles and strongholds first (they win
   the game, 9.1) — with the support my other neighbouring armies would add under Support
   orders (5.4.1) and the margin that leaves over the defender's units, garrison (1.10.1),
   likely Defense order and support; a neutral force only when the plan beats it (5.5.1).
   The best attacks take the March orders, their supporters the Support orders.
2. Defence: where the threat map says an enemy can out-strength my hold, a Defense order (the
   biggest one where the gap is widest) and Support from free neighbours.
3. Everything else: a starred Consolidate Power in a castle that can muster, Raids next to enemy
   armies, Consolidate Power where it is safe, the remaining tokens by ``filler_rank`` (4.2)."""

from __future__ import annotations

import dataclasses
from collections import defaultdict

from ...engine import board
from ...engine.actions import Action
from ...engine.consolidate import consolidate_yield
from ...engine.content import LAND
from ...engine.round import LAST_ROUND
from .. import legal
from ..analysis import DEFENSE, FIEFDOMS, SUPPORT, Situation, win_chance
from ..baseline.planning import PlanningPolicy, pick_token
from ..baseline.policy import CONSOLIDATE, UNIT_WORTH, Data, Token
from .threats import ThreatMap, threat_map

MARCH = "march"
RAID = "raid"
MIN_ATTACK = 0.1
"""The least score a planned march needs to get a March order."""
DEFENSE_GUESS = 0.6
"""The Defense bonus a defender is expected to have placed (orders are secret, 4.1)."""
ENEMY_SUPPORT = 0.6
"""Share of a defender's neighbouring strength expected to arrive as Support."""


@dataclasses.dataclass(frozen=True, slots=True)
class Attack:
    """One planned march: ``origin`` → ``target``, the Support orders it needs and its score."""

    score: float
    origin: str
    target: str
    combat: bool
    supporters: tuple[str, ...]


class StandardPlanning(PlanningPolicy):
    """Planning (4): attacks with their support, defence where threatened, then the rest."""

    def place_orders(self, sit: Situation, data: Data) -> Action:
        """Secret order placement (4.1-4.3) as one plan (see module docstring)."""
        threats = threat_map(sit)
        by_type: dict[str, list[Token]] = defaultdict(list)
        for t in legal.usable_tokens(data):
            by_type[t["type"]].append(t)
        mine = list(data["areas"])
        chosen: dict[str, str] = {}
        kinds: dict[str, str] = {}
        used: set[str] = set()
        room = [data["star_limit"]]

        def take(area: str, kind: str, want: str) -> bool:
            if area in chosen:
                return kinds[area] == kind
            token = pick_token(by_type[kind], want, room[0], used)
            if token is None:
                return False
            chosen[area] = token["id"]
            kinds[area] = kind
            used.add(token["id"])
            room[0] -= token["star"]
            return True

        marches = len(by_type[MARCH])
        targets: set[str] = set()
        for attack in self.attacks(sit, threats, mine, by_type):
            if attack.score < MIN_ATTACK or marches <= 0:
                break
            if attack.origin in chosen or attack.target in targets:
                continue
            if any(kinds.get(s, SUPPORT) != SUPPORT for s in attack.supporters):
                continue
            if take(attack.origin, MARCH, "best" if attack.combat else "cheap"):
                marches -= 1
                targets.add(attack.target)
                for s in attack.supporters:
                    take(s, SUPPORT, "best")
        for area in self.defence_order(sit, threats, mine):
            if area in chosen:
                continue
            gap = threats.gap(area)
            take(area, DEFENSE, "best" if gap > 0 else "cheap")
            for n in sorted(sit.supporters(area, sit.me)):
                if n in mine and n not in chosen and sit.area_strength(n) > 0 and gap > 1:
                    take(n, SUPPORT, "cheap")
        for area in mine:
            if area not in chosen and self.muster_here(sit, threats, area):
                take(area, CONSOLIDATE, "star")
        for score, area, kind, want in sorted(self.other_ideas(sit, threats, mine), reverse=True):
            if area not in chosen and score > 0:
                take(area, kind, want)
        return legal.complete_orders(chosen, data, self.filler_rank(sit))

    # ------------------------------------------------------------------ attacks
    def attacks(
        self, sit: Situation, threats: ThreatMap, mine: list[str], by_type: dict[str, list[Token]]
    ) -> list[Attack]:
        """Every scored march of an army in ``mine``, best first."""
        bonus = max((t["bonus"] for t in by_type[MARCH]), default=0)
        support_bonus = 1 if any(t["bonus"] for t in by_type[SUPPORT]) else 0
        out: list[Attack] = []
        for origin in mine:
            units = [u for u in sit.units(origin) if not u.routed]
            if not units:
                continue
            cost = self.leaving_cost(sit, threats, origin)
            for target in sit.reach.get(origin, ()):
                attack = self.score_attack(
                    sit, threats, mine, origin, target, bonus, support_bonus, cost
                )
                if attack is not None:
                    out.append(attack)
        out.sort(key=lambda a: (-a.score, a.origin, a.target))
        return out

    def score_attack(
        self,
        sit: Situation,
        threats: ThreatMap,
        mine: list[str],
        origin: str,
        target: str,
        bonus: int,
        support_bonus: int,
        cost: float,
    ) -> Attack | None:
        """The plan of marching the army in ``origin`` on ``target`` (None: not worth a look)."""
        s = sit.state
        me = sit.me
        units = [u for u in sit.units(origin) if not u.routed]
        castle = sit.is_castle(target)
        strength = sit.strength(units, castle) + bonus
        helpers = [a for a in sit.supporters(target, me) if a != origin and a in mine]
        helpers.sort(key=lambda a: (-sit.area_strength(a, castle), a))
        value = self.target_value(sit, target)
        aggression = self.personality.aggression
        if target in s.neutral:
            need = s.neutral[target] - strength
            chosen: list[str] = []
            for a in helpers:
                if need <= 0:
                    break
                chosen.append(a)
                need -= sit.area_strength(a, castle) + support_bonus
            if need > 0:
                return None
            score = aggression * value - cost - 0.3 * len(chosen)
            return Attack(score, origin, target, True, tuple(chosen))
        defender = sit.defender_of(target)
        if defender is not None:
            helping = sum(sit.area_strength(a, castle) + support_bonus for a in helpers)
            theirs = sit.area_strength(target) + sit.garrison(target, defender) + DEFENSE_GUESS
            theirs += ENEMY_SUPPORT * sit.support_potential(target, defender)
            margin = strength + helping + sit.card_power(me) - theirs - sit.card_power(defender)
            fiefdoms = s.tracks[FIEFDOMS]
            margin += 0.4 if fiefdoms.index(me) < fiefdoms.index(defender) else -0.6
            p = win_chance(margin)
            lost = 0.0 if last_round(sit) else sum(UNIT_WORTH.get(u.type, 1.0) for u in units)
            gain = p * (value + 0.4 * len(sit.units(target))) - (1 - p) * 0.7 * lost
            score = aggression * gain - cost - 0.15 * len(helpers)
            return Attack(score, origin, target, True, tuple(helpers))
        if sit.control[target] == me or sit.rules.domain[target] != LAND:
            return None
        exposed = max(0.0, threats.attack_on(target, sit.strength(units)))
        score = 0.9 * value - cost - 0.15 * exposed
        if s.power_tokens.get(target):
            score += 0.4
        return Attack(score, origin, target, False, ())

    def target_value(self, sit: Situation, target: str) -> float:
        """What taking ``target`` is worth: castles count most (9.1), more in the last
        rounds, for the house that is one castle short of winning, and when taken from a
        house with at least as many castles as mine and near the win (``denial``)."""
        value = sit.value(target)
        castle = sit.rules.areas[target].castle
        if castle:
            value += 1.0 + 0.25 * max(0, sit.state.round - 5) + denial(sit, target)
            if sit.castles.get(sit.me, 0) >= 5:
                value += 2.0
        return value

    def leaving_cost(self, sit: Situation, threats: ThreatMap, origin: str) -> float:
        """What marching the whole army out of ``origin`` risks: losing the area to the threat
        there (home areas keep their garrison; elsewhere a power token may hold it, 5.3.9)."""
        value = sit.value(origin)
        threat = threats.threat(origin)
        left = sit.garrison(origin, sit.me)
        risk = 0.0 if threat <= 0 else min(1.0, max(0.1, (threat - left) / 4))
        if sit.rules.areas[origin].home_of == sit.me:
            return risk * value * 0.7
        if sit.rules.domain[origin] != LAND:
            return 0.2 + 0.5 * risk
        keep = 0.3 if sit.state.power[sit.me] > 0 else 0.6
        return keep * value * (0.3 + risk)

    # ------------------------------------------------------------------ defence and the rest
    def defence_order(self, sit: Situation, threats: ThreatMap, mine: list[str]) -> list[str]:
        """My areas worth a Defense order (the threat can beat my hold), most at stake first."""
        scored = []
        for area in mine:
            if sit.rules.domain[area] != LAND:
                continue
            gap = threats.gap(area, defense=1)
            stake = sit.value(area) * self.personality.caution
            if gap > -1.0 and (sit.is_castle(area) or stake >= 2.5):
                scored.append((stake * (1 + max(0.0, gap)), area))
        return [a for _, a in sorted(scored, reverse=True)]

    def muster_here(self, sit: Situation, threats: ThreatMap, area: str) -> bool:
        """A starred Consolidate Power to muster (5.6.2) in a castle where units can be raised
        and the area is not about to fall."""
        return (
            sit.is_castle(area)
            and self.can_muster(sit, area)
            and threats.gap(area) < 1.5
            and not last_round(sit)
        )

    def other_ideas(
        self, sit: Situation, threats: ThreatMap, mine: list[str]
    ) -> list[tuple[float, str, str, str]]:
        """(score, area, order type, token wish) for Raid and Consolidate Power orders."""
        s = sit.state
        rules = sit.rules
        out = []
        for area in mine:
            raids = rules.kind(area).raids
            enemies = [
                n
                for n in board.neighbours(s, area)
                if sit.occupant(n) not in (None, sit.me) and rules.areas[n].kind in raids
            ]
            if enemies:
                out.append((0.6 + 0.2 * min(3, len(enemies)), area, RAID, "best"))
            gain = consolidate_yield(s, area, sit.me)
            if gain > 0:
                safe = threats.gap(area) < 0
                held = s.power[sit.me]
                score = self.personality.thrift * (0.8 * gain + (0.5 if held < 5 else 0))
                score *= 1.0 if held < 8 else 0.5
                out.append((score if safe else 0.3 * score, area, CONSOLIDATE, "cheap"))
        return out


DENIAL_FROM = 4
"""Castles a rival must hold before taking one from it is worth more than the castle."""


def denial(sit: Situation, target: str) -> float:
    """Extra worth of taking the castle ``target`` from its controller when that house holds
    at least ``DENIAL_FROM`` castles and no fewer than mine: each castle it loses keeps it
    from the 7 that win (9.1) and from the lead after round 10 (9.2)."""
    owner = sit.control[target]
    if owner is None or owner == sit.me:
        return 0.0
    held = sit.castles.get(owner, 0)
    if held < DENIAL_FROM or held < sit.castles.get(sit.me, 0):
        return 0.0
    return 1.0 + 0.5 * (held - DENIAL_FROM)


def last_round(sit: Situation) -> bool:
    """Is this the last round (9.2)? Then only castles and areas held at its end count: units
    lost and power gathered no longer matter."""
    return sit.state.round >= LAST_ROUND
