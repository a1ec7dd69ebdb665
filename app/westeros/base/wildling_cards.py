"""The nine wildling cards (RULES.md 7.3).

Each card gives three callables (Night's Watch, lowest bidder, everyone else), each receiving
the state and one house; choices are pushed as small decision steps (defined here), which the
attack procedure (``westeros.engine.wildlings``) resolves before the next effect."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from ..engine import board, power, tracks
from ..engine.actions import Action, SelectArea, SelectUnits
from ..engine.choices import ChooseOption, DestroyUnits, pick_units, units_to_pairs
from ..engine.content import WildlingCard
from ..engine.errors import IllegalChoice
from ..engine.flow import Decision, Prompt
from ..engine.state import TRACKS, State, Unit
from ..engine.wildlings import WildlingAttack, after_card, bid_of
from .data import load

FOOTMAN = "footman"
KNIGHT = "knight"
MAX_SUPPLY = 6
NONE = "none"

WildlingEffect = Callable[[State, str], None]

# ---------- helpers


def _units(state: State, house: str, unit_type: str) -> list[tuple[str, Unit]]:
    """``house``'s units of ``unit_type`` as (area, unit) pairs, by area id."""
    return [
        (area, u)
        for area, units in sorted(state.units.items())
        if units[0].house == house
        for u in units
        if u.type == unit_type
    ]


def _swap(state: State, area: str, unit: Unit, new_type: str) -> None:
    """Replace ``unit`` in ``area`` by a unit of ``new_type`` in place (1.2.5)."""
    units = list(state.units[area])
    units[units.index(unit)] = Unit(unit.house, new_type, unit.routed)
    state.units[area] = tuple(units)


def _swap_all(state: State, house: str, chosen: list[tuple[str, Unit]], new_type: str) -> None:
    for area, unit in chosen:
        _swap(state, area, unit, new_type)
    if chosen:
        state.emit("replaced", house=house, units=units_to_pairs(chosen), to=new_type)


def _set_supply(state: State, house: str, value: int) -> None:
    state.supply[house] = max(0, min(MAX_SUPPLY, value))
    state.emit("supply", house=house, supply=state.supply[house])


def _discard(state: State, house: str, cards: tuple[str, ...]) -> None:
    """Move ``cards`` from ``house``'s hand to its discard pile."""
    state.hands[house] = tuple(c for c in state.hands[house] if c not in cards)
    state.discards[house] = state.discards[house] + cards
    state.emit("discarded", house=house, cards=list(cards))


def _nothing(state: State, house: str) -> None:
    """No effect."""


def _destroy(count: int, reason: str) -> WildlingEffect:
    """The house destroys ``count`` of its units anywhere, its choice."""

    def effect(state: State, house: str) -> None:
        state.push(DestroyUnits(house, count, reason))

    return effect


# ---------- 7.3.2 Preemptive Raid

DESTROY = "destroy_units"
DROP = "drop_track"
SECOND_ATTACK_STRENGTH = 6


def _preemptive_raid_nw(state: State, house: str) -> None:
    state.threat = 0
    state.emit("threat", threat=0)
    state.push(WildlingAttack(SECOND_ATTACK_STRENGTH, excluded=(house,)))


def _preemptive_raid_lb(state: State, house: str) -> None:
    state.push(PreemptiveRaidChoice(house, (DESTROY, DROP), "Preemptive Raid (7.3.2)"))


@dataclasses.dataclass(frozen=True, slots=True)
class PreemptiveRaidChoice(ChooseOption):
    """The lowest bidder destroys 2 units or drops 2 places on its highest track (7.3.2)."""

    def chosen(self, state: State, option: str) -> None:
        if option == DESTROY:
            state.push(DestroyUnits(self.house, 2, self.reason))
            return
        best = min(tracks.position(state, t, self.house) for t in TRACKS)
        highest = tuple(t for t in TRACKS if tracks.position(state, t, self.house) == best)
        if len(highest) == 1:
            tracks.drop(state, highest[0], self.house, 2)
            return
        holder = tracks.holder(state, tracks.IRON_THRONE)
        state.push(PreemptiveRaidTrack(holder, highest, self.reason, self.house))


@dataclasses.dataclass(frozen=True, slots=True)
class PreemptiveRaidTrack(ChooseOption):
    """The Iron Throne holder picks which of ``loser``'s highest tracks it drops on (7.3.2)."""

    loser: str

    def prompts(self, state: State) -> dict[str, Prompt]:
        out = ChooseOption.prompts(self, state)
        out[self.house].data["house"] = self.loser
        return out

    def chosen(self, state: State, option: str) -> None:
        tracks.drop(state, option, self.loser, 2)


# ---------- 7.3.3 Crow Killers


def _crow_killers_nw(state: State, house: str) -> None:
    state.push(UpgradeFootmen(house, 2, "Crow Killers (7.3.3)"))


def _crow_killers_lb(state: State, house: str) -> None:
    _crow_killers_penalty(state, house, None)


def _crow_killers_ee(state: State, house: str) -> None:
    _crow_killers_penalty(state, house, 2)


def _crow_killers_penalty(state: State, house: str, limit: int | None) -> None:
    """Replace ``limit`` knights (None: all) with footmen; those without a footman left are
    destroyed, the house choosing which (7.3.3)."""
    knights = len(_units(state, house, KNIGHT))
    affected = knights if limit is None else min(limit, knights)
    replaced = min(affected, board.available(state, house, FOOTMAN))
    reason = "Crow Killers (7.3.3)"
    state.push(
        DestroyUnits(house, affected - replaced, reason, types=(KNIGHT,)),
        ReplaceKnights(house, replaced, reason),
    )


@dataclasses.dataclass(frozen=True, slots=True)
class UpgradeFootmen(Decision):
    """``house`` may replace up to ``count`` of its footmen with available knights (7.3.3)."""

    house: str
    count: int
    reason: str

    def most(self, state: State, footmen: list[tuple[str, Unit]]) -> int:
        return min(self.count, len(footmen), board.available(state, self.house, KNIGHT))

    def prompts(self, state: State) -> dict[str, Prompt]:
        footmen = _units(state, self.house, FOOTMAN)
        most = self.most(state, footmen)
        if most == 0:
            return {}
        data = {
            "min": 0,
            "max": most,
            "units": units_to_pairs(footmen),
            "from": FOOTMAN,
            "to": KNIGHT,
            "reason": self.reason,
        }
        return {self.house: Prompt(self.house, "upgrade_units", (SelectUnits.kind,), data)}

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, SelectUnits)
        footmen = _units(state, self.house, FOOTMAN)
        most = self.most(state, footmen)
        if len(action.units) > most:
            raise IllegalChoice(f"upgrade at most {most} footmen", rule="7.3.3")
        chosen = pick_units(footmen, action.units, len(action.units))
        state.pop()
        _swap_all(state, house, chosen, KNIGHT)

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        footmen = _units(state, self.house, FOOTMAN)
        chosen = rnd.sample(footmen, rnd.randint(0, self.most(state, footmen)))
        return SelectUnits(tuple(units_to_pairs(chosen)))


@dataclasses.dataclass(frozen=True, slots=True)
class ReplaceKnights(Decision):
    """``house`` replaces ``count`` of its knights (its choice) with footmen (7.3.3); with no
    choice left (all its knights) it happens without asking."""

    house: str
    count: int
    reason: str

    def size(self, state: State, knights: list[tuple[str, Unit]]) -> int:
        return min(self.count, len(knights), board.available(state, self.house, FOOTMAN))

    def prompts(self, state: State) -> dict[str, Prompt]:
        knights = _units(state, self.house, KNIGHT)
        size = self.size(state, knights)
        if size == 0 or size == len(knights):
            return {}
        data = {
            "count": size,
            "units": units_to_pairs(knights),
            "from": KNIGHT,
            "to": FOOTMAN,
            "reason": self.reason,
        }
        return {self.house: Prompt(self.house, "replace_units", (SelectUnits.kind,), data)}

    def run(self, state: State) -> None:
        knights = _units(state, self.house, KNIGHT)
        _swap_all(state, self.house, knights[: self.size(state, knights)], FOOTMAN)

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, SelectUnits)
        knights = _units(state, self.house, KNIGHT)
        chosen = pick_units(knights, action.units, self.size(state, knights))
        state.pop()
        _swap_all(state, house, chosen, FOOTMAN)

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        knights = _units(state, self.house, KNIGHT)
        return SelectUnits(tuple(units_to_pairs(rnd.sample(knights, self.size(state, knights)))))


# ---------- 7.3.4 Rattleshirt's Raiders


def _supply_change(delta: int) -> WildlingEffect:
    """Move the house's supply token by ``delta`` (0-6)."""

    def effect(state: State, house: str) -> None:
        _set_supply(state, house, state.supply[house] + delta)

    return effect


def _reconcile_later(state: State) -> None:
    """Every house over its new limit reconciles once all supply changes are made (7.3.4)."""
    from ..engine.supply import ReconcileAll

    after_card(state, ReconcileAll())


def _raiders_lb(state: State, house: str) -> None:
    _set_supply(state, house, state.supply[house] - 2)
    _reconcile_later(state)


# ---------- 7.3.5 Massing on the Milkwater


def _milkwater_nw(state: State, house: str) -> None:
    pile = state.discards[house]
    if pile:
        state.hands[house] = state.hands[house] + pile
        state.discards[house] = ()
        state.emit("returned_to_hand", house=house, cards=list(pile))


def _milkwater_lb(state: State, house: str) -> None:
    hand = state.hands[house]
    if len(hand) <= 1:
        return
    strength = {c: state.rules.house_cards[c].strength for c in hand}
    top = max(strength.values())
    if all(s == top for s in strength.values()):
        return
    _discard(state, house, tuple(c for c in hand if strength[c] == top))


def _milkwater_ee(state: State, house: str) -> None:
    if len(state.hands[house]) > 1:
        reason = "Massing on the Milkwater (7.3.5)"
        state.push(DiscardHouseCard(house, state.hands[house], reason))


@dataclasses.dataclass(frozen=True, slots=True)
class DiscardHouseCard(ChooseOption):
    """``house`` discards one card of its choice from its hand (7.3.5)."""

    def chosen(self, state: State, option: str) -> None:
        _discard(state, self.house, (option,))


# ---------- 7.3.6 A King Beyond the Wall


def _king_nw(state: State, house: str) -> None:
    if any(tracks.position(state, t, house) != 0 for t in TRACKS):
        state.push(TrackToTop(house, TRACKS, "A King Beyond the Wall (7.3.6)"))


def _king_lb(state: State, house: str) -> None:
    for track in TRACKS:
        tracks.move_to_bottom(state, track, house)


def _king_ee(state: State, house: str) -> None:
    options = (tracks.FIEFDOMS, tracks.KINGS_COURT)
    last = len(state.houses) - 1
    if any(tracks.position(state, t, house) != last for t in options):
        state.push(TrackToBottom(house, options, "A King Beyond the Wall (7.3.6)"))


@dataclasses.dataclass(frozen=True, slots=True)
class TrackToTop(ChooseOption):
    """``house`` takes first place on the track it picks, with its dominance token (7.3.6)."""

    def chosen(self, state: State, option: str) -> None:
        tracks.move_to_top(state, option, self.house)


@dataclasses.dataclass(frozen=True, slots=True)
class TrackToBottom(ChooseOption):
    """``house`` moves to the bottom of the track it picks (7.3.6)."""

    def chosen(self, state: State, option: str) -> None:
        tracks.move_to_bottom(state, option, self.house)


# ---------- 7.3.7 Mammoth Riders


def _mammoth_nw(state: State, house: str) -> None:
    pile = state.discards[house]
    if pile:
        state.push(TakeBackCard(house, (*pile, NONE), "Mammoth Riders (7.3.7)"))


@dataclasses.dataclass(frozen=True, slots=True)
class TakeBackCard(ChooseOption):
    """``house`` may take one card of its discard pile back into its hand (7.3.7)."""

    def chosen(self, state: State, option: str) -> None:
        if option == NONE:
            return
        state.discards[self.house] = tuple(c for c in state.discards[self.house] if c != option)
        state.hands[self.house] = state.hands[self.house] + (option,)
        state.emit("returned_to_hand", house=self.house, cards=[option])


# ---------- 7.3.8 The Horde Descends

HORDE = "The Horde Descends (7.3.8)"


def _horde_nw(state: State, house: str) -> None:
    areas = tuple(
        sorted(a for a in state.rules.castle_areas if board.controller(state, a) == house)
    )
    if areas:
        state.push(HordeMuster(house, areas))


def _horde_lb(state: State, house: str) -> None:
    areas = tuple(
        sorted(
            a
            for a in state.rules.castle_areas
            if board.occupant(state, a) == house and len(state.units[a]) >= 2
        )
    )
    if not areas:
        state.push(DestroyUnits(house, 2, HORDE))
    elif len(areas) == 1:
        state.push(DestroyUnits(house, 2, HORDE, areas=areas))
    else:
        state.push(HordeArea(house, areas))


@dataclasses.dataclass(frozen=True, slots=True)
class HordeMuster(Decision):
    """``house`` may muster (3.5) in one castle area it controls (7.3.8); ``null`` passes."""

    house: str
    areas: tuple[str, ...]

    def prompts(self, state: State) -> dict[str, Prompt]:
        data = {"areas": list(self.areas), "optional": True, "reason": HORDE}
        return {self.house: Prompt(self.house, "muster_area", (SelectArea.kind,), data)}

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, SelectArea)
        if action.area is not None and action.area not in self.areas:
            raise IllegalChoice(f"{action.area!r} is not a castle area {house} controls", "7.3.8")
        state.pop()
        if action.area is not None:
            from ..engine.mustering import MusterIn

            state.push(MusterIn(house, action.area))

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        return SelectArea(rnd.choice((*self.areas, None)))


@dataclasses.dataclass(frozen=True, slots=True)
class HordeArea(Decision):
    """``house`` picks the castle area where it loses 2 units together (7.3.8)."""

    house: str
    areas: tuple[str, ...]

    def prompts(self, state: State) -> dict[str, Prompt]:
        data = {"areas": list(self.areas), "optional": False, "reason": HORDE}
        return {self.house: Prompt(self.house, "destroy_area", (SelectArea.kind,), data)}

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, SelectArea)
        if action.area not in self.areas:
            raise IllegalChoice(f"{action.area!r} is not one of {list(self.areas)}", "7.3.8")
        state.pop()
        state.push(DestroyUnits(house, 2, HORDE, areas=(action.area,)))

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        return SelectArea(rnd.choice(self.areas))


# ---------- 7.3.9 Skinchanger Scout


def _scout_nw(state: State, house: str) -> None:
    power.gain(state, house, bid_of(state, house))
    state.emit("power", house=house, power=state.power[house])


def _lose_power(amount: int | None) -> WildlingEffect:
    def effect(state: State, house: str) -> None:
        power.lose(state, house, state.power[house] if amount is None else amount)
        state.emit("power", house=house, power=state.power[house])

    return effect


# ---------- the deck


def wildling_cards() -> list[WildlingCard]:
    """Every wildling card with its three outcomes (7.3.1-7.3.9)."""
    cards = {
        card.id: card
        for card in (
            WildlingCard(
                "silence-at-the-wall",
                "Silence at the Wall",
                _nothing,
                _nothing,
                _nothing,
                "Nothing happens.",
            ),
            WildlingCard(
                "preemptive-raid",
                "Preemptive Raid",
                _preemptive_raid_nw,
                _preemptive_raid_lb,
                _nothing,
                "Night's Watch wins: the wildlings attack again at strength 6, "
                "without the highest bidder. "
                "Wildlings win, lowest bidder: destroy 2 units "
                "or drop 2 places on your highest track.",
            ),
            WildlingCard(
                "crow-killers",
                "Crow Killers",
                _crow_killers_nw,
                _crow_killers_lb,
                _crow_killers_ee,
                "Night's Watch wins, highest bidder: upgrade up to 2 footmen to knights. "
                "Wildlings win, lowest bidder: all knights become footmen. "
                "Everyone else: 2 knights become footmen.",
            ),
            WildlingCard(
                "rattleshirts-raiders",
                "Rattleshirt's Raiders",
                _supply_change(+1),
                _raiders_lb,
                _supply_change(-1),
                "Night's Watch wins, highest bidder: supply +1. "
                "Wildlings win, lowest bidder: supply -2. "
                "Everyone else: supply -1; then reconcile armies.",
            ),
            WildlingCard(
                "massing-on-the-milkwater",
                "Massing on the Milkwater",
                _milkwater_nw,
                _milkwater_lb,
                _milkwater_ee,
                "Night's Watch wins, highest bidder: take back your discard pile. "
                "Wildlings win, lowest bidder: discard your strongest cards. "
                "Everyone else: discard one card.",
            ),
            WildlingCard(
                "a-king-beyond-the-wall",
                "A King Beyond the Wall",
                _king_nw,
                _king_lb,
                _king_ee,
                "Night's Watch wins, highest bidder: top of one track. "
                "Wildlings win, lowest bidder: bottom of all tracks. "
                "Everyone else: bottom of Fiefdoms or King's Court.",
            ),
            WildlingCard(
                "mammoth-riders",
                "Mammoth Riders",
                _mammoth_nw,
                _destroy(3, "Mammoth Riders (7.3.7)"),
                _destroy(2, "Mammoth Riders (7.3.7)"),
                "Night's Watch wins, highest bidder: take back one discarded card. "
                "Wildlings win, lowest bidder: destroy 3 units. "
                "Everyone else: destroy 2 units.",
            ),
            WildlingCard(
                "the-horde-descends",
                "The Horde Descends",
                _horde_nw,
                _horde_lb,
                _destroy(1, HORDE),
                "Night's Watch wins, highest bidder: muster in one castle area. "
                "Wildlings win, lowest bidder: destroy 2 units in one castle area. "
                "Everyone else: destroy 1 unit.",
            ),
            WildlingCard(
                "skinchanger-scout",
                "Skinchanger Scout",
                _scout_nw,
                _lose_power(None),
                _lose_power(2),
                "Night's Watch wins, highest bidder: get your bid back. "
                "Wildlings win, lowest bidder: discard all power. "
                "Everyone else: discard 2 power.",
            ),
        )
    }
    return [cards[card_id] for card_id in load("decks")["wildling_cards"]]
