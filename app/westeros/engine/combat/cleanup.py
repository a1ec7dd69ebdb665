"""Step 11 of a combat: clean-up (5.4.11) and house-card recycling (8.3.2)."""

from __future__ import annotations

import dataclasses

from .. import victory
from ..flow import Step
from ..state import State
from .abilities import ability_of
from .context import ATTACKER, SIDES, Combat
from .retreat import supply_losses
from .units import DestroyParticipants, put_in_area

RETURN_REASON = "supply on return (5.4.11)"


def recycle(state: State, house: str, keep: str | None) -> None:
    """8.3.2: a house with no card in hand takes back its discard pile, except ``keep`` (the
    card it just played, or the one Patchface discarded), which stays discarded."""
    if state.hands[house]:
        return
    pile = state.discards[house]
    state.hands[house] = tuple(c for c in pile if c != keep)
    state.discards[house] = (keep,) if keep in pile else ()
    state.emit("house_cards_recycled", house=house)


@dataclasses.dataclass(frozen=True, slots=True)
class MoveIn(Step):
    """5.4.11 items 1-3: a winning attacker's surviving army moves in (unless the defender's
    card blocks it, Arianne Martell: then it returns to its origin, ``ReturnToOrigin``); enemy
    orders left in the embattled area are removed; hands with no card left are recycled. The
    March order was already removed by the march (Ser Loras Tyrell may put it back, 8.2)."""

    def run(self, state: State) -> None:
        combat: Combat = state.combat
        army = combat.attacker.units
        if combat.winner == ATTACKER:
            order = state.orders.get(combat.area)
            if order is not None and order.house != combat.attacker.house:
                del state.orders[combat.area]
            card = combat.defender.card
            if card is not None and ability_of(state, card).blocks_move_in:
                state.emit("move_in_prevented", house=combat.attacker.house, card=card)
                losses = supply_losses(state, combat, ATTACKER, combat.origin)
                house = combat.attacker.house
                excess = [DestroyParticipants(house, ATTACKER, losses, RETURN_REASON)]
                state.push(*(excess if losses else []), ReturnToOrigin())
            elif army:
                put_in_area(state, combat.area, army)
                state.combat = combat.with_data("moved_in", True)
                state.emit("moved_in", house=combat.attacker.house, area=combat.area)
        for which in SIDES:
            side = combat.side(which)
            recycle(state, side.house, side.card)


@dataclasses.dataclass(frozen=True, slots=True)
class ReturnToOrigin(Step):
    """A winning attacker kept out of the embattled area (Arianne Martell, 8.2, §12.32) goes
    back to the area it marched from, not routed. The 5.3.7 check counted it in the embattled
    area, so the return may break supply: units are moved, so supply holds (1.7.5), and as for
    any army sent back to its origin (5.4.10) the attacker first destroys the excess from the
    returning units, its choice, never other units (``MoveIn`` queues it)."""

    def run(self, state: State) -> None:
        put_in_area(state, state.combat.origin, state.combat.attacker.units)


@dataclasses.dataclass(frozen=True, slots=True)
class EndCombat(Step):
    """The combat is over: clear ``state.combat`` and run the consequence checks (A.3)."""

    def run(self, state: State) -> None:
        for hook in state.rules.hooks.combat_end:
            hook(state, state.combat)
        state.combat = None
        state.emit("combat_over")
        victory.consequences(state)
