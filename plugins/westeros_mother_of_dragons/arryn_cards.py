"""Abilities of House Arryn's house cards (RULES.md 11.7.1), keyed by card id.

Bronze Yohn Royce and Harry Hardyng have no ability: their printed strength and icons are all
they do. "Removed from the game" (Robert Arryn, 11.7.5) takes a card out of both hand and
discard pile for good, so the hand/discard recycle (8.3.2) works on the remaining cards."""

from __future__ import annotations

import dataclasses

from westeros.engine import board, power
from westeros.engine.choices import ChooseOption
from westeros.engine.combat import DEFENDER, CardAbility, Combat
from westeros.engine.combat.strength import DEFENSE, counted_support
from westeros.engine.content import LAND
from westeros.engine.state import State

LYSA = "lysa-arryn-mod"
ROBERT = "robert-arryn"
TAKE_BACK = "take_back"
DISCARD = "discard"
PASS = "pass"
ANYA_POWER = 3
VARDIS_MAX_PRINTED = 2


def _house(combat: Combat, side: str) -> str:
    return combat.side(side).house


def _opponent_card(combat: Combat, side: str) -> str | None:
    return combat.side(combat.other(side)).card


@dataclasses.dataclass(frozen=True, slots=True)
class LysaTakeBack(ChooseOption):
    """Lysa Arryn's owner takes Lysa back into hand or leaves her discarded."""

    def chosen(self, state: State, option: str) -> None:
        if option != TAKE_BACK or LYSA not in state.discards[self.house]:
            return
        state.discards[self.house] = tuple(c for c in state.discards[self.house] if c != LYSA)
        state.hands[self.house] = (*state.hands[self.house], LYSA)
        state.emit("card_taken_back", house=self.house, card=LYSA)


class LysaArryn(CardAbility):
    """11.7.1 Lysa Arryn: a winning defender with a Defense order in the embattled area may
    take Lysa back into hand instead of discarding her (W window, 5.4.8)."""

    __slots__ = ()
    text = (
        "If you are the defender, have a Defense Order token in the embattled area and win "
        "this combat, you may return this card to your hand instead of discarding it."
    )

    def after_winner(self, state: State, combat: Combat, side: str) -> None:
        house = _house(combat, side)
        order = state.orders.get(combat.area)
        if side != DEFENDER or combat.winner != side or order is None or order.house != house:
            return
        if state.rules.order_tokens[order.token].type != DEFENSE:
            return
        state.push(LysaTakeBack(house, (TAKE_BACK, DISCARD), LYSA))


class SerVardisEgen(CardAbility):
    """11.7.1 Ser Vardis Egen: +1 strength and +2 fortifications against a card of printed
    strength 2 or less (K)."""

    __slots__ = ()
    text = (
        "If your opponent's house card has a printed strength of 2 or less, this card gains "
        "+1 combat strength and two fortification icons."
    )

    def _applies(self, state: State, combat: Combat, side: str) -> bool:
        card = _opponent_card(combat, side)
        return card is not None and state.rules.house_cards[card].strength <= VARDIS_MAX_PRINTED

    def strength_bonus(self, state: State, combat: Combat, side: str) -> int:
        return 1 if self._applies(state, combat, side) else 0

    def icon_bonus(self, state: State, combat: Combat, side: str) -> tuple[int, int]:
        return (0, 2) if self._applies(state, combat, side) else (0, 0)


class GodricBorrell(CardAbility):
    """11.7.1 Godric Borrell: defending in a sea area, +1 strength per land area the owner
    controls next to it (K)."""

    __slots__ = ()
    text = (
        "If you are defending a sea area, this card gains +1 combat strength for each land "
        "area you control adjacent to that sea area."
    )

    def strength_bonus(self, state: State, combat: Combat, side: str) -> int:
        rules = state.rules
        if side != DEFENDER or rules.kind(combat.area).counts_as_land:
            return 0
        house = _house(combat, side)
        return sum(
            1
            for n in rules.adjacency[combat.area]
            if rules.domain[n] == LAND
            and rules.kind(n).counts_as_land
            and board.controller(state, n) == house
        )


class AnyaWaynwood(CardAbility):
    """11.7.1 Anya Waynwood: on a win, the owner and every other house whose support counted
    for it gain 3 power tokens each (W window)."""

    __slots__ = ()
    text = (
        "If you win this combat, you and each other house that supported you gain 3 Power tokens."
    )

    def after_winner(self, state: State, combat: Combat, side: str) -> None:
        if combat.winner != side:
            return
        house = _house(combat, side)
        supporters = {state.orders[a].house for a in counted_support(state, combat, side)}
        houses = [house, *sorted(supporters - {house})]
        gains = {h: power.gain(state, h, ANYA_POWER) for h in houses}
        state.emit("power_gained", gains=gains)


@dataclasses.dataclass(frozen=True, slots=True)
class RobertRemove(ChooseOption):
    """Robert Arryn's owner removes Robert and the named card of ``opponent`` from the game, or
    passes."""

    opponent: str

    def chosen(self, state: State, option: str) -> None:
        if option == PASS:
            return
        for house, card in ((self.house, ROBERT), (self.opponent, option)):
            state.hands[house] = tuple(c for c in state.hands[house] if c != card)
            state.discards[house] = tuple(c for c in state.discards[house] if c != card)
        state.emit(
            "cards_removed_from_game",
            house=self.house,
            cards=[[self.house, ROBERT], [self.opponent, option]],
        )


def lowest_discarded(state: State, house: str) -> tuple[str, ...]:
    """The cards of ``house``'s discard pile of lowest printed strength (11.7.1)."""
    pile = state.discards[house]
    if not pile:
        return ()
    cards = state.rules.house_cards
    low = min(cards[c].strength for c in pile)
    return tuple(c for c in pile if cards[c].strength == low)


class RobertArryn(CardAbility):
    """11.7.1 Robert Arryn: as the defender, after combat the owner may remove Robert and the
    opponent's discarded card of lowest printed strength (its pick among equals) from the game
    for good (A window, 11.7.5)."""

    __slots__ = ()
    text = (
        "If you are the defender, after combat you may remove this card and the house card "
        "of lowest printed strength in your opponent's discard pile from the game."
    )

    def after_combat(self, state: State, combat: Combat, side: str) -> None:
        if side != DEFENDER:
            return
        opponent = combat.side(combat.other(side)).house
        choices = lowest_discarded(state, opponent)
        if choices:
            state.push(RobertRemove(_house(combat, side), (*choices, PASS), ROBERT, opponent))


ABILITIES: dict[str, CardAbility] = {
    LYSA: LysaArryn(),
    "ser-vardis-egen": SerVardisEgen(),
    "godric-borrell": GodricBorrell(),
    "anya-waynwood": AnyaWaynwood(),
    ROBERT: RobertArryn(),
}
"""Arryn's cards with an ability (11.7.1)."""
