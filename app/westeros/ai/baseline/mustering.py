"""The baseline AI's Mustering (RULES.md 3.5)."""

from __future__ import annotations

from ...engine import board
from ...engine.actions import Action, Choose
from ...engine.content import LAND
from ...engine.mustering import DONE, MusterUnit
from ..analysis import Situation
from .policy import Data, Policy


class MusteringPolicy(Policy):
    """Mustering (3.5): the recruit or upgrade worth most per point."""

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
