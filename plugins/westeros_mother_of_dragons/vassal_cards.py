"""The shared vassal house-card deck (RULES.md 11.7.4, 11.10.8).

The seven cards belong to no house (``DECK_HOUSE``): no hand is dealt them. When a vassal
fights, its commander draws 3 of the 7 at random into the vassal's hand (``rule_combat_start``;
two vassals in one combat draw from what is left), plays one and, when the combat ends, every
drawn card goes back to the deck (``rule_combat_end``: vassals keep no hand and no discard
pile). Only the commander sees the drawn cards (``rule_hand_viewers``).

Jon Connington's knight needs one in the vassal's pool, an area it controls with room under
the unit cap and supply (the "if legal" of 11.7.4, as for a loan's units, 11.9.6); Beric
Dondarrion's commander picks the type of the unit lost."""

from __future__ import annotations

import dataclasses

from westeros.engine import board, power, rng, tracks
from westeros.engine.choices import ChooseOption
from westeros.engine.combat import (
    CANCEL,
    DEFENDER,
    CardAbility,
    Combat,
    destroy,
)
from westeros.engine.combat.cards import play
from westeros.engine.content import HouseCard
from westeros.engine.state import State, Unit

from . import loans, vassals

DECK_HOUSE = "vassal-deck"
"""The owner of the seven vassal cards: not a house in play, so no hand gets them (11.7.4)."""
DRAWN = 3
VARYS = "varys"
SYRIO = "syrio-forel"
JAQEN = "jaqen-h-ghar"
JANOS = "janos-slynt"
CONNINGTON = "jon-connington"
BERIC = "beric-dondarrion"
BRONN = "bronn"
BRONN_COST = 2
ZERO_BRONN = "zero_bronn"
KEEP_POWER = "keep_power"
NO_KNIGHT = "no_knight"
FOOTMAN = "footman"
KNIGHT = "knight"


def _house(combat: Combat, side: str) -> str:
    return combat.side(side).house


class Varys(CardAbility):
    """11.7.4 Varys: after combat (A) this vassal takes first place on the Fiefdoms track."""

    __slots__ = ()
    text = "This vassal takes first place on the Fiefdoms track (the others move down)."

    def after_combat(self, state: State, combat: Combat, side: str) -> None:
        tracks.move_to_top(state, "fiefdoms", _house(combat, side))


class SyrioForel(CardAbility):
    """11.7.4 Syrio Forel: when this vassal defends, every non-vassal footman in the combat
    (fighting or supporting, either side) has strength 0 (K)."""

    __slots__ = ()
    text = "If this vassal defends, every non-vassal footman in the combat has strength 0."

    def nullifies_unit(
        self, state: State, combat: Combat, side: str, for_side: str, unit: Unit
    ) -> bool:
        return (
            side == DEFENDER and unit.type == FOOTMAN and not vassals.is_vassal(state, unit.house)
        )


class JaqenHghar(CardAbility):
    """11.7.4 Jaqen H'ghar (C): the opponent's card goes back to his hand, then a card picked
    at random from that hand (the returned one included) becomes his card."""

    __slots__ = ()
    text = (
        "The opponent's chosen card returns to his hand; then a card picked at random from that "
        "hand (the returned card included) becomes his card."
    )

    def cancel(self, state: State, combat: Combat, side: str) -> None:
        other = combat.other(side)
        house = _house(combat, other)
        card = combat.side(other).card
        if card is None:
            return
        hand = (*state.hands[house], card)
        state.hands[house] = hand
        index, state.seed = rng.below(state.seed, len(hand))
        play(state, other, hand[index], CANCEL)


@dataclasses.dataclass(frozen=True, slots=True)
class PlaceConnington(ChooseOption):
    """Jon Connington: the commander puts one available knight of the vassal in one of the
    offered areas, or none."""

    vassal: str = ""

    def chosen(self, state: State, option: str) -> None:
        if option == NO_KNIGHT:
            return
        board.add_units(state, option, self.vassal, [KNIGHT])
        state.emit("connington_knight", house=self.vassal, area=option)


class JonConnington(CardAbility):
    """11.7.4 Jon Connington (A): if this vassal loses, its commander may place one of the
    vassal's available knights in the area it retreated to or in its home area, if legal
    (controlled by the vassal, room under the unit cap and supply)."""

    __slots__ = ()
    text = (
        "If this vassal loses, its commander may place one of the vassal's available knights in "
        "the area the vassal retreated to or in its home area."
    )

    def after_combat(self, state: State, combat: Combat, side: str) -> None:
        if combat.winner is None or combat.winner == side:
            return
        house = _house(combat, side)
        wanted = {combat.get("retreated_to"), state.rules.home_of.get(house)}
        areas = tuple(a for a in loans.placements(state, house, KNIGHT) if a in wanted)
        if areas:
            state.push(PlaceConnington(house, (*areas, NO_KNIGHT), "Jon Connington", house))


@dataclasses.dataclass(frozen=True, slots=True)
class BericLoss(ChooseOption):
    """Beric Dondarrion: the commander picks the type of the vassal's unit that is destroyed."""

    which: str = ""

    def chosen(self, state: State, option: str) -> None:
        combat: Combat = state.combat
        unit = next(u for u in combat.side(self.which).units if u.type == option)
        destroy(state, self.which, [unit], BERIC)


class BericDondarrion(CardAbility):
    """11.7.4 Beric Dondarrion (W): if this vassal wins, it must destroy one of its own units in
    the embattled area (before the loser's casualties); its commander picks the unit type."""

    __slots__ = ()
    text = "If this vassal wins, it must destroy one of its own units in the embattled area."

    def after_winner(self, state: State, combat: Combat, side: str) -> None:
        units = combat.side(side).units
        if combat.winner != side or not units:
            return
        types = tuple(sorted({u.type for u in units}))
        if len(types) == 1:
            destroy(state, side, [units[0]], BERIC)
        else:
            state.push(BericLoss(_house(combat, side), types, "Beric Dondarrion", side))


@dataclasses.dataclass(frozen=True, slots=True)
class AnswerBronn(ChooseOption):
    """Bronn's opponent discards 2 power tokens to make Bronn's strength 0, or keeps them."""

    which: str = ""

    def chosen(self, state: State, option: str) -> None:
        if option != ZERO_BRONN or state.power[self.house] < BRONN_COST:
            return
        power.lose(state, self.house, BRONN_COST)
        state.combat = state.combat.with_data(ZERO_BRONN, self.which)
        state.emit("bronn_zeroed", house=self.house, card=BRONN)


class Bronn(CardAbility):
    """11.7.4 Bronn (before combat): the opponent may discard 2 available power tokens to make
    Bronn's printed strength 0."""

    __slots__ = ()
    text = "The opponent may discard 2 available power tokens to make Bronn's strength 0."

    def before_combat(self, state: State, combat: Combat, side: str) -> None:
        opponent = _house(combat, combat.other(side))
        if state.power.get(opponent, 0) >= BRONN_COST:
            state.push(AnswerBronn(opponent, (ZERO_BRONN, KEEP_POWER), "Bronn", side))

    def strength_bonus(self, state: State, combat: Combat, side: str) -> int:
        return -state.rules.house_cards[BRONN].strength if combat.get(ZERO_BRONN) == side else 0


CARDS = (
    (VARYS, "Varys", 0, 0, 0, Varys()),
    (SYRIO, "Syrio Forel", 1, 0, 0, SyrioForel()),
    (JAQEN, "Jaqen H'ghar", 1, 0, 0, JaqenHghar()),
    (JANOS, "Janos Slynt", 2, 2, 1, None),
    (CONNINGTON, "Jon Connington", 2, 0, 0, JonConnington()),
    (BERIC, "Beric Dondarrion", 3, 0, 0, BericDondarrion()),
    (BRONN, "Bronn", 4, 0, 0, Bronn()),
)
"""The seven vassal cards: id, name, strength, swords, fortifications, ability (11.7.4)."""


def house_cards() -> list[HouseCard]:
    """The shared vassal deck (11.7.4)."""
    return [
        HouseCard(i, DECK_HOUSE, name, s, sw, ft, ability, ability.text if ability else "")
        for i, name, s, sw, ft, ability in CARDS
    ]


def draw(state: State, combat: Combat) -> None:
    """A fighting vassal's commander draws 3 random cards of the deck for it (11.10.8)."""
    deck = [c for c, *_ in CARDS]
    for house in (combat.attacker.house, combat.defender.house):
        if not vassals.is_vassal(state, house):
            continue
        drawn, state.seed = rng.shuffled(state.seed, deck)
        state.hands[house] = drawn[:DRAWN]
        deck = list(drawn[DRAWN:])


def return_cards(state: State, combat: Combat) -> None:
    """Every card drawn for a vassal goes back to the deck after the combat (11.10.8)."""
    for house in (combat.attacker.house, combat.defender.house):
        if vassals.is_vassal(state, house):
            state.hands[house] = ()
            state.discards[house] = ()


def hand_viewers(state: State, house: str) -> frozenset[str] | None:
    """A vassal's drawn cards are seen by its commander alone (11.10.8), who also answers as
    the vassal itself."""
    if not vassals.is_vassal(state, house):
        return None
    head = vassals.commander(state, house)
    return frozenset({house} if head is None else {house, head})


def empty_hands(state: State) -> None:
    """At setup a vassal holds no card of its own house (11.10.8)."""
    for house in vassals.vassals(state):
        state.hands[house] = ()
        state.discards[house] = ()
