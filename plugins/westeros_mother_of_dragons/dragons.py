"""Targaryen's dragons (RULES.md 11.5): a land unit type that is never mustered (11.5.1), whose
strength is the number of dragon strength tokens that have reached the box (11.5.2), and whose
groups of only dragons fly to any land area when they march (11.5.3). Support and retreat go
by adjacency, like any land unit (11.5.4): only the march hook lets them fly."""

from __future__ import annotations

from collections.abc import Sequence

from westeros.engine.content import LAND, UnitStrength, UnitType
from westeros.engine.state import State, Unit

DRAGON = "dragon"


def unit_type() -> UnitType:
    """The dragon (11.5.1, 11.5.4): a land unit, never mustered nor upgraded into; its printed
    strength 0 is replaced by the dragon strength (``strength``)."""
    return UnitType(DRAGON, "Dragon", LAND, strength=0, muster_cost=0, musterable=False)


def tokens_in_box(rounds: Sequence[int], round_number: int) -> int:
    """Dragon strength tokens in the box in round ``round_number``: those whose round of the
    round track (``rounds``) the marker has reached (11.5.2)."""
    return sum(1 for r in rounds if r <= round_number)


def strength_of(rounds: Sequence[int]) -> UnitStrength:
    """The ``rule_unit_strength`` callable: a dragon's strength is the tokens in the box; other
    units keep theirs (routed dragons never get here: they are 0, 11.5.2)."""

    def strength(state: State, unit: Unit, value: int) -> int:
        if unit.type != DRAGON:
            return value
        return tokens_in_box(rounds, state.round)

    return strength


def flight(state: State, house: str, area: str, types: tuple[str, ...]) -> list[str]:
    """A marching group of only dragons may go to any land area of the board (11.5.3); the
    engine still applies every other march rule."""
    if not types or any(t != DRAGON for t in types):
        return []
    rules = state.rules
    return [a for a in rules.land_areas if a != area and rules.domain[a] == LAND]
