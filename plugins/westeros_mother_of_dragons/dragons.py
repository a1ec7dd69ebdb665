"""Targaryen's dragons (RULES.md 11.5): a land unit type that is never mustered (11.5.1), whose
strength is the number of dragon strength tokens that have reached the box (11.5.2), and whose
groups of only dragons fly to any land area when they march (11.5.3). Support and retreat go
by adjacency, like any land unit (11.5.4): only the march hook lets them fly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from westeros.engine.content import LAND, UnitStrength, UnitType
from westeros.engine.state import State, Unit

DRAGON = "dragon"
ALTERNATE = "mod_alternate_dragon_tokens"
SHIFTED = "dragon_tokens_shifted"


def unit_type() -> UnitType:
    """The dragon (11.5.1, 11.5.4): a land unit, never mustered nor upgraded into; its printed
    strength 0 is replaced by the dragon strength (``strength``)."""
    return UnitType(DRAGON, "Dragon", LAND, strength=0, muster_cost=0, musterable=False)


def on_track(
    rounds: Sequence[int], round_number: int, shifted: Sequence[int] = ()
) -> tuple[int, ...]:
    """The rounds (of ``rounds``) of the dragon strength tokens still on the round track in
    round ``round_number``: not yet reached by the marker (11.5.2) nor shifted into the box by
    Fire Made Flesh (``shifted``, 11.11.2)."""
    return tuple(r for r in rounds if r > round_number and r not in shifted)


def rounds_of(data: Mapping[str, Any], options: Mapping[str, Any]) -> tuple[int, ...]:
    """The rounds of the dragon strength tokens: printed, or with ``mod_alternate_dragon_tokens``
    the alternate ones (2, 4, 7, 9, 10)."""
    key = "alternate_dragon_strength_rounds" if options.get(ALTERNATE) else "dragon_strength_rounds"
    return tuple(data[key])


def strength_of(rounds: Sequence[int]) -> UnitStrength:
    """The ``rule_unit_strength`` callable: a dragon's strength is the tokens in the box, those
    the marker reached plus those Fire Made Flesh shifted there early (``dragon_tokens_shifted``,
    their rounds, 11.11.2); other units keep theirs (routed dragons never get here: they are 0,
    11.5.2)."""

    def strength(state: State, unit: Unit, value: int) -> int:
        if unit.type != DRAGON:
            return value
        return len(rounds) - len(on_track(rounds, state.round, state.ext.get(SHIFTED, ())))

    return strength


def flight(state: State, house: str, area: str, types: tuple[str, ...]) -> list[str]:
    """A marching group of only dragons may go to any land area of the board (11.5.3); the
    engine still applies every other march rule."""
    if not types or any(t != DRAGON for t in types):
        return []
    rules = state.rules
    return [a for a in rules.land_areas if a != area and rules.domain[a] == LAND]
