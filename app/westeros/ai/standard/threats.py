"""The Standard AI's threat map: for each of my areas, the strongest attack one enemy house
could bring there at its next march — its strongest army that can reach the area with a March
bonus, plus the Support its other neighbouring units could add (5.4.1-5.4.2) — against what I
hold there (units, garrison 1.10.1, my own neighbouring support). Reach, unit strength and
support eligibility are the engine's (``board.reachable``, ``board.unit_strength``, the area
kinds' ``supports``); the weights are heuristics."""

from __future__ import annotations

from functools import cached_property

from ...engine import board
from ..analysis import Situation

SUPPORT_SHARE = 0.8
"""How much of the neighbouring strength a house is expected to turn into Support (a supporter
cannot march at the same time)."""


class ThreatMap:
    """Threats and holds read off one ``Situation`` (see module docstring), computed once."""

    def __init__(self, sit: Situation) -> None:
        self.sit = sit

    def support(self, target: str, house: str, exclude: str | None = None) -> float:
        """Strength ``house``'s units next to ``target`` could add as Support (5.4.1)."""
        return SUPPORT_SHARE * self.sit.support_potential(target, house, exclude=exclude)

    def attack(self, house: str, target: str) -> float:
        """The strongest attack ``house`` could bring on ``target`` next: its strongest march
        there with a March bonus, plus its other neighbouring support."""
        return self.sit.attack_potential(house, target, SUPPORT_SHARE)

    def attack_on(self, area: str, arriving: float) -> float:
        """How far the strongest enemy attack on ``area`` would exceed ``arriving`` strength."""
        enemies = (h for h in self.sit.state.houses if h != self.sit.me)
        return max((self.attack(h, area) for h in enemies), default=0.0) - arriving

    @cached_property
    def _threats(self) -> dict[str, tuple[float, str | None]]:
        sit = self.sit
        out: dict[str, tuple[float, str | None]] = {}
        enemies = [h for h in sit.state.houses if h != sit.me]
        for area in sit.rules.areas:
            if sit.control[area] != sit.me and sit.occupant(area) != sit.me:
                continue
            best: tuple[float, str | None] = (0.0, None)
            for house in enemies:
                value = self.attack(house, area)
                if value > best[0]:
                    best = (value, house)
            out[area] = best
        return out

    def threat(self, area: str) -> float:
        """The strongest attack one enemy could bring on my ``area`` (0: none can reach)."""
        return self._threats.get(area, (0.0, None))[0]

    def attacker(self, area: str) -> str | None:
        """The enemy house behind ``threat(area)``."""
        return self._threats.get(area, (0.0, None))[1]

    def hold(self, area: str, defense: int = 0) -> float:
        """What I defend ``area`` with: units, garrison, a Defense ``defense`` bonus and my
        neighbouring support."""
        sit = self.sit
        return (
            sit.area_strength(area)
            + sit.garrison(area, sit.me)
            + defense
            + self.support(area, sit.me, exclude=area)
        )

    def gap(self, area: str, defense: int = 0) -> float:
        """How far the threat on ``area`` exceeds my hold there (negative: safe), house cards
        counted at their likely worth."""
        sit = self.sit
        enemy = self.attacker(area)
        if enemy is None:
            return -99.0
        cards = sit.card_power(enemy) - sit.card_power(sit.me)
        return self.threat(area) + cards - self.hold(area, defense)

    def frontline(self, area: str) -> bool:
        """Is an enemy unit next to ``area`` (by land or sea)?"""
        sit = self.sit
        return any(sit.occupant(n) not in (None, sit.me) for n in board.neighbours(sit.state, area))


def threat_map(sit: Situation) -> ThreatMap:
    """The threat map of ``sit``, built once: a situation is one decision's fixed picture, and
    a decision asks for it once per plan or recruit it weighs."""
    found: ThreatMap = vars(sit).setdefault("threat_map", ThreatMap(sit))
    return found
