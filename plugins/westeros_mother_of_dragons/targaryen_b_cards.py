"""House Targaryen's alternative B deck (RULES.md 11.7.3), used instead of the A deck in games
with the ``mod_targaryen_b_deck`` option: both decks are registered (the card reference lists
them all) and ``deal`` puts the chosen one in Targaryen's hand at setup.

Daario Naharis, Gray Worm and Strong Belwas have no ability."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from westeros.engine import power
from westeros.engine.choices import ChooseOption
from westeros.engine.combat import ATTACKER, CardAbility, Combat
from westeros.engine.content import LAND, StateHook
from westeros.engine.state import State, Unit

from .essos import TARGARYEN

OPTION = "mod_targaryen_b_deck"
DAENERYS_B = "daenerys-targaryen-b"
GROLEO = "captain-groleo"
RAKHARO = "rakharo"
MISSANDEI = "missandei"
KNIGHT = "knight"
SHIP = "ship"
PASS = "pass"
RAKHARO_KNIGHT = 4
MISSANDEI_MAX_GAP = 2


def _gap(combat: Combat) -> int:
    attacker, defender = combat.get("strength", (0, 0))
    return abs(attacker - defender)


class DaenerysTargaryenB(CardAbility):
    """11.7.3 Daenerys Targaryen (B deck): after combat the opponent discards available power
    tokens equal to the gap between the final combat strengths (A window, 11.7.5)."""

    __slots__ = ()
    uses_strength_gap = True
    text = (
        "After combat, your opponent discards Power tokens equal to the difference between the "
        "final combat strengths."
    )

    def after_combat(self, state: State, combat: Combat, side: str) -> None:
        opponent = combat.side(combat.other(side)).house
        if power.lose(state, opponent, _gap(combat)):
            state.emit("power", house=opponent, power=state.power[opponent])


class CaptainGroleo(CardAbility):
    """11.7.3 Captain Groleo: attacking a land area by ship transport (from an area not next to
    it), +1 strength per own ship next to the embattled area (K)."""

    __slots__ = ()
    text = (
        "If you are attacking a land area by ship transport, this card gains +1 combat strength "
        "for each of your Ships adjacent to the embattled area."
    )

    def strength_bonus(self, state: State, combat: Combat, side: str) -> int:
        rules = state.rules
        if side != ATTACKER or rules.domain[combat.area] != LAND:
            return 0
        if combat.origin in rules.adjacency[combat.area]:
            return 0
        house = combat.side(side).house
        return sum(
            1
            for area in rules.adjacency[combat.area]
            for u in state.units.get(area, ())
            if u.house == house and u.type == SHIP
        )


class Rakharo(CardAbility):
    """11.7.3 Rakharo: in a land area without castle or stronghold, each own participating
    knight counts 4 (K; a routed knight stays 0)."""

    __slots__ = ()
    text = (
        "If this combat takes place in a land area without a Castle or Stronghold, each of your "
        "participating Knights has a combat strength of 4."
    )

    def unit_strength(
        self,
        state: State,
        combat: Combat,
        side: str,
        for_side: str,
        unit: Unit,
        supporting: bool,
        value: int,
    ) -> int:
        rules = state.rules
        area = rules.areas[combat.area]
        if for_side != side or supporting or unit.type != KNIGHT or unit.routed:
            return value
        if rules.domain[combat.area] != LAND or area.castle:
            return value
        return RAKHARO_KNIGHT


@dataclasses.dataclass(frozen=True, slots=True)
class MissandeiTakeBack(ChooseOption):
    """Missandei's owner takes one card of its discard pile (an option) back, or passes."""

    def chosen(self, state: State, option: str) -> None:
        if option == PASS or option not in state.discards[self.house]:
            return
        state.discards[self.house] = tuple(c for c in state.discards[self.house] if c != option)
        state.hands[self.house] = (*state.hands[self.house], option)
        state.emit("card_taken_back", house=self.house, card=option)


class Missandei(CardAbility):
    """11.7.3 Missandei: losing by 2 or less, the owner may take one other card of its discard
    pile back into hand (W window)."""

    __slots__ = ()
    uses_strength_gap = True
    text = (
        "If you lose this combat by 2 or less, you may return one other house card from your "
        "discard pile to your hand."
    )

    def after_winner(self, state: State, combat: Combat, side: str) -> None:
        if combat.winner is None or combat.winner == side or _gap(combat) > MISSANDEI_MAX_GAP:
            return
        house = combat.side(side).house
        pile = tuple(c for c in state.discards[house] if c != MISSANDEI)
        if pile:
            state.push(MissandeiTakeBack(house, (*pile, PASS), MISSANDEI))


B_ABILITIES: dict[str, CardAbility] = {
    DAENERYS_B: DaenerysTargaryenB(),
    GROLEO: CaptainGroleo(),
    RAKHARO: Rakharo(),
    MISSANDEI: Missandei(),
}
"""Targaryen's B-deck cards with an ability (11.7.3)."""


def deal(deck: Sequence[str]) -> StateHook:
    """The setup step putting ``deck`` (the chosen Targaryen deck) in Targaryen's hand."""

    def setup(state: State) -> None:
        if TARGARYEN in state.houses:
            state.hands[TARGARYEN] = tuple(deck)

    return setup
