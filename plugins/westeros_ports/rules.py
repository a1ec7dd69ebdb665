"""How ports behave (RULES.md 6), expressed through the engine's area-kind rules."""

from __future__ import annotations

import dataclasses

from westeros.engine import board
from westeros.engine.content import AreaRules
from westeros.engine.state import State

PORT = "port"
PORT_CAPACITY = 3


@dataclasses.dataclass(frozen=True, slots=True)
class PortRules(AreaRules):
    """A port: held with its land area, never embattled, at most three ships (6.1)."""

    def land(self, state: State, area: str) -> str:
        """The land area this port belongs to."""
        return state.rules.areas[area].attrs["port_of"]

    def sea(self, state: State, area: str) -> str:
        """The sea area this port touches."""
        return state.rules.areas[area].attrs["port_sea"]

    def may_enter(self, state: State, house: str, area: str) -> bool:
        return board.controller(state, self.land(state, area)) == house

    def may_be_embattled(self, state: State, area: str) -> bool:
        return False

    def unit_cap(self, state: State, area: str) -> int | None:
        return PORT_CAPACITY

    def controller(self, state: State, area: str) -> str | None | bool:
        return board.controller(state, self.land(state, area))

    def consolidate_yield(self, state: State, area: str, house: str) -> int | None:
        sea_owner = board.occupant(state, self.sea(state, area))
        return 0 if sea_owner not in (None, house) else 1

    def allows_power_token(self, state: State, area: str) -> bool:
        return False
