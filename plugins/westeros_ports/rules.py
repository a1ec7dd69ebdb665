"""How ports behave (RULES.md 6): the port area kind and the rule hooks of the ports plugin.

The engine knows nothing about ports. ``PortRules`` answers the area-kind questions (entry,
control, cap, Consolidate Power); the rule hooks add the rest: port take-over and orphaned ships
after every resolution (6.3), mustering into a castle's own port (6.2.4) and the Game of Thrones
income of ports (6.2.3)."""

from __future__ import annotations

import dataclasses
import random
import weakref
from collections.abc import Mapping
from typing import Any, ClassVar

from westeros.engine import board
from westeros.engine.actions import Action
from westeros.engine.content import SEA, AreaRules, Ruleset
from westeros.engine.errors import IllegalChoice
from westeros.engine.flow import Decision, Prompt
from westeros.engine.state import State

PORT = "port"
PORT_CAPACITY = 3
SHIP = "ship"


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

    def controller(self, state: State, area: str) -> str | bool | None:
        return board.controller(state, self.land(state, area))

    def consolidate_yield(self, state: State, area: str, house: str) -> int | None:
        sea_owner = board.occupant(state, self.sea(state, area))
        return 0 if sea_owner not in (None, house) else 1

    def allows_power_token(self, state: State, area: str) -> bool:
        return False


@dataclasses.dataclass(frozen=True, slots=True)
class PortIndex:
    """The ports of one Ruleset: (port, land area, sea area) sorted by port id, and the ports
    of each land area."""

    ports: tuple[tuple[str, str, str], ...]
    by_land: dict[str, tuple[str, ...]]


_INDEX: weakref.WeakKeyDictionary[Ruleset, PortIndex] = weakref.WeakKeyDictionary()


def index(rules: Ruleset) -> PortIndex:
    """The (cached) PortIndex of ``rules``."""
    found = _INDEX.get(rules)
    if found is None:
        ports = tuple(
            sorted(
                (a.id, a.attrs["port_of"], a.attrs["port_sea"])
                for a in rules.areas.values()
                if a.kind == PORT
            )
        )
        by_land: dict[str, tuple[str, ...]] = {}
        for port, land, _ in ports:
            by_land[land] = (*by_land.get(land, ()), port)
        found = _INDEX[rules] = PortIndex(ports, by_land)
    return found


# ---------------------------------------------------------------------------------- 6.3


class IllegalTakeover(IllegalChoice):
    """More ships than the take-over allows (availability, supply, port cap)."""

    rule = "6.3.1"
    code = "illegal/port-takeover"


@dataclasses.dataclass(frozen=True, slots=True)
class TakeOverShips(Action):
    """Put ``count`` of one's own available ships into a port just taken over (6.3.1)."""

    kind: ClassVar[str] = "take_over_ships"
    count: int


@dataclasses.dataclass(frozen=True, slots=True)
class PortTakeover(Decision):
    """``house`` took control of ``port``'s land area, whose ``ships`` ships of another house
    were removed; it chooses how many of them to replace with its own available ships
    (6.3.1, 6.3.3, §12.38). It is asked once the march that caused it is fully resolved, its
    combat included (6.3.4: the engine runs the march's ``Attack`` above the decisions queued by
    the consequence checks), and bounded then, with every unit back on the board: availability
    (1.2.2), the port cap (6.1.3) and supply (1.7.5). With nothing to choose it ends by itself."""

    house: str
    port: str
    ships: int

    def limit(self, state: State) -> int:
        """The most ships ``house`` may put into the port now."""
        land = state.rules.areas[self.port].attrs["port_of"]
        present = state.units.get(self.port, ())
        if board.controller(state, land) != self.house or (
            present and present[0].house != self.house
        ):
            return 0
        room = min(
            self.ships,
            board.available(state, self.house, SHIP),
            PORT_CAPACITY - len(present),
        )
        for count in range(room, 0, -1):
            if board.within_supply(state, self.house, {self.port: len(present) + count}):
                return count
        return 0

    def prompts(self, state: State) -> dict[str, Prompt]:
        most = self.limit(state)
        if most == 0:
            return {}
        data = {"port": self.port, "min": 0, "max": most, "removed": self.ships, "rule": "6.3.1"}
        return {self.house: Prompt(self.house, "port_takeover", (TakeOverShips.kind,), data)}

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, TakeOverShips)
        most = self.limit(state)
        if not 0 <= action.count <= most:
            raise IllegalTakeover(f"choose between 0 and {most} ships for {self.port}")
        state.pop()
        board.add_units(state, self.port, house, [SHIP] * action.count)
        state.emit("port_taken_over", house=house, port=self.port, ships=action.count)

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        return TakeOverShips(rnd.randint(0, self.limit(state)))

    def run(self, state: State) -> None:
        state.emit("port_taken_over", house=self.house, port=self.port, ships=0)


def after_resolution(state: State) -> None:
    """Consequence check for ports (6.3, Appendix A.3): ships in a port whose land area is
    uncontrolled are destroyed with their order (6.3.2, §12.39); ships in a port whose land
    area another house now controls are removed with their order, and that house is asked
    how many to replace with its own (6.3.1, 6.3.3, §12.38)."""
    for port, land, _ in index(state.rules).ports:
        ships = state.units.get(port)
        if not ships:
            continue
        owner = ships[0].house
        holder = board.controller(state, land)
        if holder == owner:
            continue
        board.remove_units(state, port, ships)
        if holder is None:
            state.emit("port_ships_destroyed", house=owner, port=port, ships=len(ships))
        else:
            state.emit("port_ships_removed", house=owner, port=port, ships=len(ships), by=holder)
            state.push(PortTakeover(holder, port, len(ships)))


def most_ships(view: Mapping[str, Any], ruleset: Ruleset, rnd: random.Random) -> Action:
    """The AIs' answer to a take-over (6.3.1): as many ships as allowed."""
    return TakeOverShips(int(view["prompt"]["data"]["max"]))


# ---------------------------------------------------------------------------------- 6.2


def muster_targets(state: State, area: str, house: str, unit_type: str) -> list[str]:
    """A castle area may muster ships straight into its own port while it holds fewer than 3
    ships, whoever holds the port's sea area (6.2.4, §12.19)."""
    if state.rules.unit_types[unit_type].domain != SEA:
        return []
    return [
        port
        for port in index(state.rules).by_land.get(area, ())
        if len(state.units.get(port, ())) < PORT_CAPACITY
    ]


def power_income(state: State, house: str) -> int:
    """Game of Thrones: +1 power per controlled port holding at least one of ``house``'s ships,
    unless another house controls the port's sea area (6.2.3, §12.40)."""
    income = 0
    for port, _, sea in index(state.rules).ports:
        ships = state.units.get(port)
        if ships and ships[0].house == house and board.occupant(state, sea) in (None, house):
            income += 1
    return income
