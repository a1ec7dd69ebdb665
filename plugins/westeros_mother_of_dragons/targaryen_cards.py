"""Abilities of House Targaryen's A-deck house cards (RULES.md 11.7.2), keyed by card id.

Arstan Whitebeard and Ser Jorah Mormont have no ability. Cards "removed from the game"
(Khal Drogo, Viserys Targaryen, Illyrio Mopatis; 11.7.5) leave both hand and discard pile for
good, after the combat once the played card is discarded (8.3.1), so the hand recycle (8.3.2)
works on the remaining cards."""

from __future__ import annotations

import dataclasses

from westeros.engine import power
from westeros.engine.choices import ChooseOption
from westeros.engine.combat import CardAbility, Combat
from westeros.engine.state import State, Unit

from .dragons import DRAGON

KHAL_DROGO = "khal-drogo"
XARO = "xaro-xhoan-daxos"
DAENERYS = "daenerys-targaryen-a"
VISERYS = "viserys-targaryen"
ILLYRIO = "illyrio-mopatis"
KNIGHT = "knight"
SHIP = "ship"
PASS = "pass"
VISERYS_BONUS = "viserys_bonus"
XARO_SHIP_VALUE = 2
DAENERYS_BONUS = 2
ILLYRIO_KEEP_BELOW = 5


def _count(units: tuple[Unit, ...], unit_type: str) -> int:
    return sum(1 for u in units if u.type == unit_type)


def remove_from_game(state: State, house: str, card: str) -> None:
    """Take ``card`` out of ``house``'s hand and discard pile for good (11.7.5)."""
    state.hands[house] = tuple(c for c in state.hands[house] if c != card)
    state.discards[house] = tuple(c for c in state.discards[house] if c != card)
    state.emit("cards_removed_from_game", house=house, cards=[[house, card]])


class KhalDrogo(CardAbility):
    """11.7.2 Khal Drogo: +1 strength and +1 sword per own participating knight (K); after the
    combat, won or lost, Khal Drogo is removed from the game (A window)."""

    __slots__ = ()
    text = (
        "This card gains +1 combat strength and one sword icon for each of your participating "
        "Knights. After combat, remove this card from the game."
    )

    def strength_bonus(self, state: State, combat: Combat, side: str) -> int:
        return _count(combat.side(side).units, KNIGHT)

    def icon_bonus(self, state: State, combat: Combat, side: str) -> tuple[int, int]:
        return (_count(combat.side(side).units, KNIGHT), 0)

    def after_combat(self, state: State, combat: Combat, side: str) -> None:
        remove_from_game(state, combat.side(side).house, KHAL_DROGO)


class XaroXhoanDaxos(CardAbility):
    """11.7.2 Xaro Xhoan Daxos: with more participating ships than the opponent, each own
    participating ship is worth 2 (K; a routed ship stays 0)."""

    __slots__ = ()
    text = (
        "If you have more participating Ships than your opponent, each of your participating "
        "Ships has a combat strength of 2."
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
        if for_side != side or supporting or unit.type != SHIP or unit.routed:
            return value
        mine = _count(combat.side(side).units, SHIP)
        theirs = _count(combat.side(combat.other(side)).units, SHIP)
        return XARO_SHIP_VALUE if mine > theirs else value


class DaenerysTargaryen(CardAbility):
    """11.7.2 Daenerys Targaryen (A deck): +2 strength with a dragon among the own
    participating units (K)."""

    __slots__ = ()
    text = "If a Dragon is among your participating units, this card gains +2 combat strength."

    def strength_bonus(self, state: State, combat: Combat, side: str) -> int:
        return DAENERYS_BONUS if _count(combat.side(side).units, DRAGON) else 0


@dataclasses.dataclass(frozen=True, slots=True)
class ViserysDiscard(ChooseOption):
    """Viserys's owner discards one card of its hand (an option) to add its printed strength,
    or passes."""

    def chosen(self, state: State, option: str) -> None:
        combat = state.combat
        if option == PASS or combat is None or option not in state.hands[self.house]:
            return
        state.hands[self.house] = tuple(c for c in state.hands[self.house] if c != option)
        state.discards[self.house] = (*state.discards[self.house], option)
        bonus = state.rules.house_cards[option].strength
        state.combat = combat.with_data(VISERYS_BONUS, bonus)
        state.emit("card_discarded_for_strength", house=self.house, card=option, bonus=bonus)


class ViserysTargaryen(CardAbility):
    """11.7.2 Viserys Targaryen: before combat the owner may discard another card of its hand
    to add that card's printed strength (before-combat window); if Targaryen loses, Viserys is
    removed from the game (taken out after the combat, A window, once it is discarded)."""

    __slots__ = ()
    text = (
        "Before combat, you may discard one other card from your hand to add its printed "
        "combat strength to this card. If you lose this combat, remove this card from the game."
    )

    def before_combat(self, state: State, combat: Combat, side: str) -> None:
        house = combat.side(side).house
        hand = state.hands[house]
        if hand:
            state.push(ViserysDiscard(house, (*hand, PASS), VISERYS))

    def strength_bonus(self, state: State, combat: Combat, side: str) -> int:
        return int(combat.get(VISERYS_BONUS, 0))

    def after_combat(self, state: State, combat: Combat, side: str) -> None:
        if combat.winner is not None and combat.winner != side:
            remove_from_game(state, combat.side(side).house, VISERYS)


class IllyrioMopatis(CardAbility):
    """11.7.2 Illyrio Mopatis: after combat the owner gains power tokens equal to the gap
    between the final combat strengths (after the Blade, 11.7.5); then, with 5 or more
    available power tokens, Illyrio is removed from the game (A window)."""

    __slots__ = ()
    uses_strength_gap = True
    text = (
        "After combat, gain Power tokens equal to the difference between the final combat "
        "strengths. Then, if you have 5 or more available Power tokens, remove this card from "
        "the game."
    )

    def after_combat(self, state: State, combat: Combat, side: str) -> None:
        house = combat.side(side).house
        attacker, defender = combat.get("strength", (0, 0))
        gap = abs(attacker - defender)
        if gap:
            state.emit("power_gained", gains={house: power.gain(state, house, gap)})
        if state.power[house] >= ILLYRIO_KEEP_BELOW:
            remove_from_game(state, house, ILLYRIO)


TARGARYEN_ABILITIES: dict[str, CardAbility] = {
    KHAL_DROGO: KhalDrogo(),
    XARO: XaroXhoanDaxos(),
    DAENERYS: DaenerysTargaryen(),
    VISERYS: ViserysTargaryen(),
    ILLYRIO: IllyrioMopatis(),
}
"""Targaryen's A-deck cards with an ability (11.7.2)."""
