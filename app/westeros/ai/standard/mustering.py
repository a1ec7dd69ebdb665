"""The Standard AI's Mustering (RULES.md 3.5): land units where they hold or take castles —
in the most threatened castle first, siege engines only beside an enemy castle — and ships
only while my fleet is small or enemy ships stand next to the sea area."""

from __future__ import annotations

from ...engine import board
from ...engine.content import LAND
from ..analysis import Situation
from ..baseline.mustering import MusteringPolicy
from .threats import threat_map

SMALL_FLEET = 2


class StandardMustering(MusteringPolicy):
    """Mustering (3.5): land units to the front line first, few ships."""

    def recruit_worth(
        self, sit: Situation, unit: str, dst: str, danger: float, siege: int, fleet: int
    ) -> float:
        """How useful one more ``unit`` in ``dst`` is (see module docstring)."""
        kind = sit.rules.unit_types[unit]
        threats = threat_map(sit)
        front = threats.frontline(dst)
        if kind.domain != LAND:
            enemy_ships = any(
                sit.occupant(n) not in (None, sit.me) and sit.rules.domain[n] != LAND
                for n in board.neighbours(sit.state, dst)
            )
            worth = 0.9 if fleet < SMALL_FLEET else 0.25
            return worth + (0.6 if enemy_ships else 0.0)
        if kind.vs_castle is not None:
            return 2.4 if siege else 0.2
        worth = kind.strength * (1.0 + 0.6 * danger)
        return worth * (1.3 if front else 1.0) + 0.2 * max(0.0, threats.gap(dst))
