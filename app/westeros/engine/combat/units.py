"""Changing the participating units of a combat (5.4.9, 5.4.10, card abilities).

The defending units stand in the embattled area; the attacking army is off the board while the
combat resolves (see context.py). These helpers keep the board and ``state.combat`` in step.
Orders are not touched here: an order in an area emptied mid-combat stays until the combat's
clean-up and the consequence checks remove it. Interpretation: a defender whose units all died
before the totals (§12.30) still counts the Defense order lying in the area (5.4.2)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable

from .. import board
from ..actions import Action, SelectUnits
from ..choices import pick_units
from ..flow import Decision, Prompt
from ..state import State, Unit
from .context import ATTACKER, Combat


def take_from_area(state: State, area: str, units: Iterable[Unit]) -> None:
    """Remove ``units`` (matched by value) from ``area``, leaving its order in place."""
    left = list(state.units.get(area, ()))
    for unit in units:
        left.remove(unit)
    if left:
        state.units[area] = tuple(left)
    else:
        state.units.pop(area, None)


def put_in_area(state: State, area: str, units: Iterable[Unit]) -> None:
    """Add ``units`` to ``area``; an enemy power token there returns to the pool (1.5.5)."""
    new = tuple(units)
    if not new:
        return
    current = state.units.get(area, ())
    if current and current[0].house != new[0].house:
        raise AssertionError(f"two houses in {area}")
    state.units[area] = current + new
    if state.power_tokens.get(area) not in (None, new[0].house):
        del state.power_tokens[area]


def set_units(state: State, which: str, units: tuple[Unit, ...]) -> None:
    """Record ``units`` as ``which``'s participating units."""
    combat: Combat = state.combat
    side = combat.side(which)
    state.combat = combat.with_side(which, dataclasses.replace(side, units=units))


def destroy(state: State, which: str, units: list[Unit], reason: str) -> None:
    """Destroy some of ``which``'s participating units (matched by value). The event names the
    embattled area for both sides: the attacking army fights and falls there (5.4.9), even
    while it is lifted off its origin."""
    if not units:
        return
    combat: Combat = state.combat
    left = list(combat.side(which).units)
    for unit in units:
        left.remove(unit)
    if which != ATTACKER:
        take_from_area(state, combat.area, units)
    set_units(state, which, tuple(left))
    state.emit(
        "destroyed",
        house=combat.side(which).house,
        units=[[combat.area, u.type] for u in units],
        reason=reason,
    )


def replace_unit(state: State, which: str, old: Unit, new: Unit) -> None:
    """Swap one participating unit of ``which`` for another (Renly Baratheon's upgrade)."""
    combat: Combat = state.combat
    units = list(combat.side(which).units)
    units[units.index(old)] = new
    if which != ATTACKER:
        area = list(state.units[combat.area])
        area[area.index(old)] = new
        state.units[combat.area] = tuple(area)
    set_units(state, which, tuple(units))


def available(state: State, house: str, unit_type: str) -> int:
    """Units of ``unit_type`` left in ``house``'s pool, counting the lifted attacking army as
    used (1.2.2)."""
    left = board.available(state, house, unit_type)
    combat: Combat | None = state.combat
    if combat is not None and combat.attacker.house == house:
        left -= sum(1 for u in combat.attacker.units if u.type == unit_type)
    return left


@dataclasses.dataclass(frozen=True, slots=True)
class DestroyParticipants(Decision):
    """``house`` destroys ``count`` of its side's participating units of its choice
    (casualties 5.4.9, supply losses on retreat 5.4.10). Asks only when the choice matters:
    fewer units than ``count`` or units all alike are destroyed at once (0.4.1)."""

    house: str
    which: str
    count: int
    reason: str

    def eligible(self, state: State) -> list[tuple[str, Unit]]:
        """The units to choose from, as (area, unit) pairs."""
        combat: Combat = state.combat
        where = combat.where(self.which)
        return [(where, u) for u in combat.side(self.which).units]

    def prompts(self, state: State) -> dict[str, Prompt]:
        units = self.eligible(state)
        if self.count <= 0 or len(units) <= self.count or len(set(units)) == 1:
            return {}
        return {
            self.house: Prompt(
                self.house,
                "destroy_units",
                (SelectUnits.kind,),
                {
                    "count": self.count,
                    "units": [[a, u.type] for a, u in units],
                    "reason": self.reason,
                },
            )
        }

    def run(self, state: State) -> None:
        if self.count > 0:
            units = [u for _, u in self.eligible(state)][: self.count]
            destroy(state, self.which, units, self.reason)

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, SelectUnits)
        chosen = pick_units(self.eligible(state), action.units, self.count)
        state.pop()
        destroy(state, self.which, [u for _, u in chosen], self.reason)

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        units = rnd.sample(self.eligible(state), self.count)
        return SelectUnits(tuple((a, u.type) for a, u in units))
