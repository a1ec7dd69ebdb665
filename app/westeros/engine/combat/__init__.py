"""Combat between two houses (RULES.md 5.4; the flow of Appendix A.2).

``start_combat`` sets ``state.combat`` and queues the steps, one module per stage:
support (5.4.1) → cards and ability windows (5.4.3-5.4.4) → plugin steps, Blade, victor,
casualties (5.4.5-5.4.9, resolution.py) → retreat (5.4.10) → clean-up (5.4.11). The last step
clears ``state.combat`` and runs the consequence checks."""

from __future__ import annotations

import dataclasses

from .. import board
from ..errors import IllegalMove
from ..flow import Step
from ..state import State, Unit
from .abilities import (
    AFTER_COMBAT,
    AFTER_WINNER,
    BEFORE_COMBAT,
    CANCEL,
    IMMEDIATELY,
    WINDOWS,
    CardAbility,
    ChooseArea,
    ability_of,
)
from .cards import StartCardChoice, Window, replace_card
from .cleanup import EndCombat, MoveIn, recycle
from .context import ATTACKER, DEFENDER, SIDES, Combat, Side
from .resolution import (
    AfterCasualties,
    Casualties,
    DetermineWinner,
    PluginSteps,
    ValyrianSteelBlade,
)
from .retreat import Retreat
from .strength import initial_strength, is_supported
from .support import CallForSupport
from .units import DestroyParticipants, destroy


def defender_of(state: State, attacker: str, area: str) -> str:
    """The house defending ``area``: the one whose units stand there, else the home house of an
    empty home area that still has its garrison (1.10.2, §12.1)."""
    occupant = board.occupant(state, area)
    if occupant is not None and occupant != attacker:
        return occupant
    home = state.rules.areas[area].home_of
    if home is not None and home != attacker and home in state.houses and area in state.garrisons:
        return home
    raise IllegalMove(f"no house defends {area}", rule="5.3.4")


def start_combat(
    state: State,
    attacker: str,
    origin: str,
    area: str,
    units: tuple[Unit, ...],
    march_token: str,
) -> None:
    """Start the combat of ``attacker``'s march from ``origin`` into ``area`` (5.4).

    The march has already removed its March order ``march_token`` from ``origin`` and made its
    other moves; the attacking ``units`` have been lifted out of ``origin`` (5.3.8) and stay off
    the board until they move in or retreat."""
    defender = defender_of(state, attacker, area)
    state.combat = Combat(
        area=area,
        origin=origin,
        march_token=march_token,
        attacker=Side(attacker, tuple(units)),
        defender=Side(defender, state.units.get(area, ())),
    )
    state.emit("combat", attacker=attacker, defender=defender, area=area, origin=origin)
    for hook in state.rules.hooks.combat_start:
        hook(state, state.combat)
    state.push(
        CallForSupport(),
        InitialStrength(),
        StartCardChoice(),
        Window(CANCEL),
        Window(IMMEDIATELY),
        Window(BEFORE_COMBAT),
        PluginSteps(),
        ValyrianSteelBlade(),
        DetermineWinner(),
        Window(AFTER_WINNER),
        Casualties(),
        AfterCasualties(),
        Retreat(),
        MoveIn(),
        Window(AFTER_COMBAT),
        EndCombat(),
    )


@dataclasses.dataclass(frozen=True, slots=True)
class StartCombat(Step):
    """A step that calls ``start_combat`` (for callers that queue the combat)."""

    attacker: str
    origin: str
    area: str
    units: tuple[Unit, ...]
    march_token: str

    def run(self, state: State) -> None:
        start_combat(state, self.attacker, self.origin, self.area, self.units, self.march_token)


@dataclasses.dataclass(frozen=True, slots=True)
class InitialStrength(Step):
    """5.4.2: record both initial strengths (shown while the cards are chosen)."""

    def run(self, state: State) -> None:
        combat: Combat = state.combat
        strength = (
            initial_strength(state, combat, ATTACKER),
            initial_strength(state, combat, DEFENDER),
        )
        state.combat = combat.with_data("initial_strength", strength)
        state.emit("initial_strength", attacker=strength[0], defender=strength[1])


__all__ = [
    "AFTER_COMBAT",
    "AFTER_WINNER",
    "ATTACKER",
    "BEFORE_COMBAT",
    "CANCEL",
    "DEFENDER",
    "IMMEDIATELY",
    "SIDES",
    "WINDOWS",
    "CardAbility",
    "ChooseArea",
    "Combat",
    "DestroyParticipants",
    "Side",
    "StartCombat",
    "ability_of",
    "defender_of",
    "destroy",
    "is_supported",
    "recycle",
    "replace_card",
    "start_combat",
]
