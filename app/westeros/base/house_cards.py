"""Abilities of the base house cards (RULES.md 8.2), keyed by card id.

Cards without an ability (Eddard Stark, Greatjon Umber, Ser Rodrik Cassel, Ser Gregor Clegane,
Ser Jaime Lannister, The Hound, Euron Crow's Eye, Dagmar Cleftjaw, Brienne of Tarth, Melisandre,
Randyll Tarly, Ser Garlan Tyrell, Margaery Tyrell, Alester Florent, The Red Viper, Areo Hotah,
Obara Sand, Darkstar) have no entry: their printed strength and icons are all they do."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from ..engine import power, tracks
from ..engine.choices import ChooseOption
from ..engine.combat import (
    ATTACKER,
    CANCEL,
    DEFENDER,
    IMMEDIATELY,
    CardAbility,
    ChooseArea,
    Combat,
    ability_of,
    destroy,
    is_supported,
    recycle,
    replace_card,
)
from ..engine.combat.strength import counted_support
from ..engine.combat.units import available, replace_unit
from ..engine.errors import IllegalTarget
from ..engine.state import TRACKS, Order, State, Unit

FOOTMAN = "footman"
KNIGHT = "knight"
SHIP = "ship"
STANNIS = "stannis-baratheon"
YES = "yes"
NO = "no"
PASS = "pass"


def _house(combat: Combat, side: str) -> str:
    return combat.side(side).house


def _opponent(combat: Combat, side: str) -> str:
    return combat.side(combat.other(side)).house


def _won(combat: Combat, side: str) -> bool:
    return combat.winner == side


# ---------------------------------------------------------------------------------- Stark


class RobbStark(CardAbility):
    """8.2 Robb Stark: the winner picks the loser's retreat area (5.4.10, §12.36)."""

    __slots__ = ()
    text = (
        "If you win this combat, you may choose the area to which your opponent retreats. "
        "You must choose a legal area where your opponent loses the fewest units."
    )
    chooses_retreat = True


class RooseBolton(CardAbility):
    """8.2 Roose Bolton: on a loss the whole discard pile returns to hand (§12.35)."""

    __slots__ = ()
    text = (
        "If you lose this combat, return your entire house card discard pile into your hand "
        "(including this card)."
    )

    def after_winner(self, state: State, combat: Combat, side: str) -> None:
        if _won(combat, side):
            return
        house = _house(combat, side)
        state.hands[house] = state.hands[house] + state.discards[house]
        state.discards[house] = ()
        state.emit("discards_returned", house=house, card="roose-bolton")


class TheBlackfish(CardAbility):
    """8.2 The Blackfish: no casualties from swords or card abilities (5.4.9, §12.37)."""

    __slots__ = ()
    text = (
        "You do not take casualties in this combat from house card abilities, sword icons, "
        "or Tides of Battle cards."
    )
    prevents_casualties = True


class CatelynStark(CardAbility):
    """8.2 Catelyn Stark: the Defense order bonus in the embattled area is doubled."""

    __slots__ = ()
    text = (
        "If you have a Defense Order token in the area where combat is occurring, the value "
        "of that Order token is doubled."
    )

    def order_bonus(
        self, state: State, combat: Combat, side: str, for_side: str, bonus: int
    ) -> int:
        return bonus * 2 if side == for_side == DEFENDER else bonus


# ---------------------------------------------------------------------------------- Lannister


class TywinLannister(CardAbility):
    """8.2 Tywin Lannister: the winner gains 2 power tokens."""

    __slots__ = ()
    text = "If you win this combat, gain two Power tokens."

    def after_winner(self, state: State, combat: Combat, side: str) -> None:
        if _won(combat, side):
            house = _house(combat, side)
            state.emit("power_gained", house=house, amount=power.gain(state, house, 2))


class AttackingUnitsWorthTwo(CardAbility):
    """Attacking, the owner's non-routed units of one type (participating or supporting) are
    worth 2 instead of 1 (Ser Kevan Lannister: footmen; Victarion Greyjoy: ships)."""

    __slots__ = ()

    unit_type: ClassVar[str] = ""

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
        mine = side == for_side == ATTACKER and unit.house == _house(combat, side)
        return value + 1 if mine and unit.type == self.unit_type and not unit.routed else value


class SerKevanLannister(AttackingUnitsWorthTwo):
    """Ser Kevan Lannister (8.2): attacking footmen worth 2."""

    __slots__ = ()

    unit_type = FOOTMAN
    text = (
        "If you are attacking, all of your participating Footmen (as well as supporting "
        "Lannister Footmen) add +2 combat strength instead of +1."
    )


class VictarionGreyjoy(AttackingUnitsWorthTwo):
    """Victarion Greyjoy (8.2): attacking ships worth 2."""

    __slots__ = ()

    unit_type = SHIP
    text = (
        "If you are attacking, all of your participating Ships (as well as supporting "
        "Greyjoy Ships) add +2 combat strength instead of +1."
    )


@dataclasses.dataclass(frozen=True, slots=True)
class TyrionCancel(ChooseOption):
    """Tyrion Lannister's owner decides whether to cancel the opponent's card."""

    side: str

    def chosen(self, state: State, option: str) -> None:
        if option != YES:
            return
        combat: Combat = state.combat
        target = combat.other(self.side)
        opposing = combat.side(target)
        if opposing.card is None:
            return
        state.hands[opposing.house] = (*state.hands[opposing.house], opposing.card)
        state.emit("house_card_cancelled", house=opposing.house, card=opposing.card)
        replace_card(state, target, opposing.card, CANCEL, "tyrion-lannister")


class TyrionLannister(CardAbility):
    """8.2 Tyrion Lannister: may cancel the opponent's card, who must pick another (§12.28)."""

    __slots__ = ()
    text = (
        "You may immediately cancel your opponent's chosen House card and return it to his "
        "hand. He must then choose a different House card. If he has no other House cards in "
        "hand, he cannot use a House card this combat."
    )

    def cancel(self, state: State, combat: Combat, side: str) -> None:
        if combat.side(combat.other(side)).card is not None:
            state.push(TyrionCancel(_house(combat, side), (YES, NO), "tyrion-lannister", side))


@dataclasses.dataclass(frozen=True, slots=True)
class CerseiRemove(ChooseArea):
    """Cersei Lannister's owner may remove one of the opponent's orders."""

    rule = "8.2"
    error = IllegalTarget

    def chosen(self, state: State, area: str | None) -> None:
        if area is not None:
            order = state.orders.pop(area)
            state.emit("order_removed", house=order.house, area=area, reason="cersei-lannister")


class CerseiLannister(CardAbility):
    """8.2 Cersei Lannister: the winner may remove one opponent order anywhere (except the
    embattled area's, which clean-up removes anyway; S&R)."""

    __slots__ = ()
    text = (
        "If you win this combat, you may remove one of your opponent's Order tokens from "
        "anywhere on the board."
    )

    def after_winner(self, state: State, combat: Combat, side: str) -> None:
        if not _won(combat, side):
            return
        enemy = _opponent(combat, side)
        areas = tuple(
            sorted(a for a, o in state.orders.items() if o.house == enemy and a != combat.area)
        )
        if areas:
            state.push(CerseiRemove(_house(combat, side), areas, True, "cersei-lannister"))


# ---------------------------------------------------------------------------------- Greyjoy


class BalonGreyjoy(CardAbility):
    """8.2 Balon Greyjoy: the opponent's card's printed strength counts as 0."""

    __slots__ = ()
    text = "The printed combat strength of your opponent's House card is reduced to 0."

    def zeroes_opponent_card(self, state: State, combat: Combat, side: str) -> bool:
        return True


class TheonGreyjoy(CardAbility):
    """8.2 Theon Greyjoy: defending a castle area, +1 strength and +1 sword."""

    __slots__ = ()
    text = (
        "If you are defending an area that contains either a Stronghold or a Castle, this "
        "card gains +1 combat strength and a sword icon."
    )

    def _applies(self, state: State, combat: Combat, side: str) -> bool:
        return side == DEFENDER and state.rules.areas[combat.area].castle > 0

    def strength_bonus(self, state: State, combat: Combat, side: str) -> int:
        return 1 if self._applies(state, combat, side) else 0

    def icon_bonus(self, state: State, combat: Combat, side: str) -> tuple[int, int]:
        return (1, 0) if self._applies(state, combat, side) else (0, 0)


class AshaGreyjoy(CardAbility):
    """8.2 Asha Greyjoy: without counted support, +2 swords and +1 fortification (8.3.4)."""

    __slots__ = ()
    text = (
        "If you are not being supported in this combat, this card gains two sword icons and "
        "one fortification icon."
    )

    def icon_bonus(self, state: State, combat: Combat, side: str) -> tuple[int, int]:
        return (0, 0) if is_supported(state, combat, side) else (2, 1)


@dataclasses.dataclass(frozen=True, slots=True)
class AeronSwap(ChooseOption):
    """Aeron Damphair's owner decides whether to pay 2 power tokens to play another card."""

    side: str

    def chosen(self, state: State, option: str) -> None:
        if option != YES:
            return
        combat: Combat = state.combat
        house = _house(combat, self.side)
        power.lose(state, house, 2)
        state.discards[house] = (*state.discards[house], "aeron-damphair")
        state.emit("house_card_discarded", house=house, card="aeron-damphair", paid=2)
        replace_card(state, self.side, "aeron-damphair", IMMEDIATELY, "aeron-damphair")


class AeronDamphair(CardAbility):
    """8.2 Aeron Damphair: may pay 2 power tokens to swap for another card (§12.29)."""

    __slots__ = ()
    text = (
        "You may immediately discard two of your available Power tokens to discard Aeron "
        "Damphair and choose a different House card from your hand (if able)."
    )

    def immediately(self, state: State, combat: Combat, side: str) -> None:
        house = _house(combat, side)
        if state.power[house] >= 2 and state.hands[house]:
            state.push(AeronSwap(house, (YES, NO), "aeron-damphair", side))


# ---------------------------------------------------------------------------------- Baratheon


class StannisBaratheon(CardAbility):
    """8.2 Stannis Baratheon: +1 if the opponent is higher on the Iron Throne track."""

    __slots__ = ()
    text = (
        "If your opponent has a higher position on the Iron Throne Influence track than you, "
        "this card gains +1 combat strength."
    )

    def strength_bonus(self, state: State, combat: Combat, side: str) -> int:
        order = state.tracks[tracks.IRON_THRONE]
        higher = order.index(_opponent(combat, side)) < order.index(_house(combat, side))
        return 1 if higher else 0


@dataclasses.dataclass(frozen=True, slots=True)
class RenlyUpgrade(ChooseArea):
    """Renly Baratheon's owner may upgrade one footman: participating (named by the embattled
    area) or in one of his supporting areas."""

    side: str

    def chosen(self, state: State, area: str | None) -> None:
        if area is None:
            return
        combat: Combat = state.combat
        house = _house(combat, self.side)
        if area == combat.area:
            units = [u for u in combat.side(self.side).units if u.type == FOOTMAN]
            old = _pick_footman(units)
            replace_unit(state, self.side, old, Unit(house, KNIGHT, old.routed))
        else:
            units = list(state.units[area])
            old = _pick_footman([u for u in units if u.type == FOOTMAN])
            units[units.index(old)] = Unit(house, KNIGHT, old.routed)
            state.units[area] = tuple(units)
        state.emit("upgraded", house=house, area=area, unit=FOOTMAN, to=KNIGHT)


def _pick_footman(footmen: list[Unit]) -> Unit:
    """A non-routed footman if there is one (the better unit to upgrade), else a routed one."""
    return next((u for u in footmen if not u.routed), footmen[0])


class RenlyBaratheon(CardAbility):
    """8.2 Renly Baratheon: on a win, may upgrade a participating or supporting Baratheon
    footman to a knight (a knight must be available)."""

    __slots__ = ()
    text = (
        "If you win this combat, you may upgrade one of your participating Footmen (or one "
        "supporting Baratheon Footman) to a Knight."
    )

    def after_winner(self, state: State, combat: Combat, side: str) -> None:
        house = _house(combat, side)
        if not _won(combat, side) or available(state, house, KNIGHT) <= 0:
            return
        areas = []
        if any(u.type == FOOTMAN for u in combat.side(side).units):
            areas.append(combat.area)
        for area in counted_support(state, combat, side):
            if any(u.house == house and u.type == FOOTMAN for u in state.units[area]):
                areas.append(area)
        if areas:
            state.push(RenlyUpgrade(house, tuple(areas), True, "renly-baratheon", side))


class SerDavosSeaworth(CardAbility):
    """8.2 Ser Davos Seaworth: +1 strength and +1 sword while Stannis is in your discards."""

    __slots__ = ()
    text = (
        'If your "Stannis Baratheon" House card is in your discard pile, this card gains +1 '
        "combat strength and a sword icon."
    )

    def _applies(self, state: State, combat: Combat, side: str) -> bool:
        return STANNIS in state.discards[_house(combat, side)]

    def strength_bonus(self, state: State, combat: Combat, side: str) -> int:
        return 1 if self._applies(state, combat, side) else 0

    def icon_bonus(self, state: State, combat: Combat, side: str) -> tuple[int, int]:
        return (1, 0) if self._applies(state, combat, side) else (0, 0)


class SalladhorSaan(CardAbility):
    """8.2 Salladhor Saan: if supported, every non-Baratheon ship in the combat is worth 0."""

    __slots__ = ()
    text = (
        "If you are being supported in this combat, the combat strength of all non-Baratheon "
        "Ships is reduced to 0."
    )

    def nullifies_unit(
        self, state: State, combat: Combat, side: str, for_side: str, unit: Unit
    ) -> bool:
        return (
            unit.type == SHIP
            and unit.house != _house(combat, side)
            and is_supported(state, combat, side)
        )


@dataclasses.dataclass(frozen=True, slots=True)
class PatchfaceDiscard(ChooseOption):
    """Patchface's owner may discard one card of the opponent's hand."""

    opponent: str

    def chosen(self, state: State, option: str) -> None:
        if option == PASS:
            return
        hand = state.hands[self.opponent]
        state.hands[self.opponent] = tuple(c for c in hand if c != option)
        state.discards[self.opponent] = (*state.discards[self.opponent], option)
        state.emit("house_card_discarded", house=self.opponent, card=option, reason="patchface")
        recycle(state, self.opponent, option)


class Patchface(CardAbility):
    """8.2 Patchface: after combat, may discard a card of the opponent's hand (8.3.2, §12.34)."""

    __slots__ = ()
    text = "After combat, you may look at your opponent's hand and discard one card of your choice."

    def after_combat(self, state: State, combat: Combat, side: str) -> None:
        enemy = _opponent(combat, side)
        if state.hands[enemy]:
            options = (*state.hands[enemy], PASS)
            state.push(PatchfaceDiscard(_house(combat, side), options, "patchface", enemy))


# ---------------------------------------------------------------------------------- Tyrell


class MaceTyrell(CardAbility):
    """8.2 Mace Tyrell: destroy one participating enemy footman, unless the opponent's card
    prevents casualties (§12.30). An unrouted footman is taken first: it is the only choice
    that can matter, and it is always the better one for Mace's owner."""

    __slots__ = ()
    text = "Immediately destroy one of your opponent's attacking or defending Footmen units."

    def immediately(self, state: State, combat: Combat, side: str) -> None:
        target = combat.other(side)
        opposing = combat.side(target)
        if opposing.card is not None and ability_of(state, opposing.card).prevents_casualties:
            return
        footmen = [u for u in opposing.units if u.type == FOOTMAN]
        if footmen:
            destroy(state, target, [_pick_footman(footmen)], "mace-tyrell")


class SerLorasTyrell(CardAbility):
    """8.2 Ser Loras Tyrell: attacking and winning with the army moved in, the March order is
    placed in the conquered area and may be resolved again this round (§12.33)."""

    __slots__ = ()
    text = (
        "If you are attacking and win this combat, move the March Order token used into the "
        "conquered area (instead of discarding it). The March Order may be resolved again "
        "later this round."
    )

    def after_combat(self, state: State, combat: Combat, side: str) -> None:
        if side == ATTACKER and _won(combat, side) and combat.get("moved_in"):
            house = _house(combat, side)
            state.orders[combat.area] = Order(house, combat.march_token)
            state.emit("order_moved", house=house, area=combat.area, token=combat.march_token)


@dataclasses.dataclass(frozen=True, slots=True)
class QueenOfThornsRemove(ChooseArea):
    """The Queen of Thorns' owner removes one of the opponent's adjacent orders."""

    rule = "8.2"
    error = IllegalTarget

    def chosen(self, state: State, area: str | None) -> None:
        assert area is not None
        _remove_order(state, area, "queen-of-thorns")


def _remove_order(state: State, area: str, reason: str) -> None:
    order = state.orders.pop(area)
    state.emit("order_removed", house=order.house, area=area, reason=reason)


class QueenOfThorns(CardAbility):
    """8.2 Queen of Thorns: remove one opponent order adjacent to the embattled area, if any;
    never the March order that started the combat (§12.31)."""

    __slots__ = ()
    text = (
        "Immediately remove one of your opponent's Order tokens in any one area adjacent to "
        "the area where combat is occurring. You may not remove the March Order token used "
        "to start this combat."
    )

    def immediately(self, state: State, combat: Combat, side: str) -> None:
        enemy = _opponent(combat, side)
        areas = tuple(
            a
            for a in sorted(state.rules.adjacency[combat.area])
            if (o := state.orders.get(a)) is not None
            and o.house == enemy
            and not (a == combat.origin and o.token == combat.march_token)
        )
        if len(areas) == 1:
            _remove_order(state, areas[0], "queen-of-thorns")
        elif areas:
            state.push(QueenOfThornsRemove(_house(combat, side), areas, False, "queen-of-thorns"))


# ---------------------------------------------------------------------------------- Martell


class NymeriaSand(CardAbility):
    """8.2 Nymeria Sand: attacking +1 sword, defending +1 fortification."""

    __slots__ = ()
    text = (
        "If you are defending, this card gains a fortification icon. If you are attacking, "
        "this card gains a sword icon."
    )

    def icon_bonus(self, state: State, combat: Combat, side: str) -> tuple[int, int]:
        return (1, 0) if side == ATTACKER else (0, 1)


class ArianneMartell(CardAbility):
    """8.2 Arianne Martell: defending and losing, the attacker does not move in (§12.32)."""

    __slots__ = ()
    text = (
        "If you are defending and lose this combat, your opponent may not move his units into "
        "the embattled area. They return to the area from which they marched. Your own units "
        "must still retreat."
    )
    blocks_move_in = True


@dataclasses.dataclass(frozen=True, slots=True)
class DoranTrack(ChooseOption):
    """Doran Martell's owner picks the track on which the opponent drops to the bottom."""

    opponent: str

    def chosen(self, state: State, option: str) -> None:
        tracks.move_to_bottom(state, option, self.opponent)


class DoranMartell(CardAbility):
    """8.2 Doran Martell: the opponent drops to the last position of a track of your choice;
    dominance tokens and turn order follow at once (1.6.4, §12.27)."""

    __slots__ = ()
    text = "Immediately move your opponent to the last space of the Influence track of your choice."

    def immediately(self, state: State, combat: Combat, side: str) -> None:
        state.push(
            DoranTrack(_house(combat, side), TRACKS, "doran-martell", _opponent(combat, side))
        )


ABILITIES: dict[str, CardAbility] = {
    "robb-stark": RobbStark(),
    "roose-bolton": RooseBolton(),
    "the-blackfish": TheBlackfish(),
    "catelyn-stark": CatelynStark(),
    "tywin-lannister": TywinLannister(),
    "ser-kevan-lannister": SerKevanLannister(),
    "tyrion-lannister": TyrionLannister(),
    "cersei-lannister": CerseiLannister(),
    "victarion-greyjoy": VictarionGreyjoy(),
    "balon-greyjoy": BalonGreyjoy(),
    "theon-greyjoy": TheonGreyjoy(),
    "asha-greyjoy": AshaGreyjoy(),
    "aeron-damphair": AeronDamphair(),
    "stannis-baratheon": StannisBaratheon(),
    "renly-baratheon": RenlyBaratheon(),
    "ser-davos-seaworth": SerDavosSeaworth(),
    "salladhor-saan": SalladhorSaan(),
    "patchface": Patchface(),
    "mace-tyrell": MaceTyrell(),
    "ser-loras-tyrell": SerLorasTyrell(),
    "queen-of-thorns": QueenOfThorns(),
    "nymeria-sand": NymeriaSand(),
    "arianne-martell": ArianneMartell(),
    "doran-martell": DoranMartell(),
}
