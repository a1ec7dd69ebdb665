"""Westeros deck IV (RULES.md 11.11): 10 cards, one revealed per Westeros phase after decks
I-III and resolved last (the engine resolves decks in order). Only 8-player games keep the deck
(``setup`` drops it otherwise); 10 cards cover rounds 2-10, so none is reused (11.11.1). Each
card places its printed loyalty tokens, then offers Targaryen its option (11.11.2): most
choices are ``choose_option`` prompts, which every AI level answers with the plugin's own
answers by the card (``ai_targaryen``); cancelling a token move (``loyalty_cancel``) and Fire
Made Flesh's token (``dragon_token``) have their own kinds and AI answers (``cancel_answer``,
``latest_token``)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from westeros.engine import board, power, tracks
from westeros.engine.actions import Action, Choose
from westeros.engine.choices import ChooseOption
from westeros.engine.content import LAND, N_, Ruleset, WesterosCard
from westeros.engine.flow import Prompt, Step
from westeros.engine.state import State, Unit

from . import content, essos, loyalty
from .dragons import DRAGON, SHIFTED, on_track, rounds_of

DECK = 4
DECLINE = "pass"
DONE = "done"
CANCEL = "cancel"
ALLOW = "allow"
TOKEN_PREFIX = "dragon_token_"
DESTROY_DRAGON = "fire_destroy_dragon"
RETURN_DRAGON = "fire_return_dragon"
TARGARYEN = loyalty.TARGARYEN
RIVER_ADJACENT = (
    "crackclaw-point", "greywater-watch", "harrenhal", "moat-cailin", "princes-pass",
    "riverrun", "seagard", "starfall", "the-mountains-of-the-moon", "the-twins",
    "three-towers", "winterfell",
)  # fmt: skip
"""11.11.3: the areas S&R treats as river-adjacent for Watering the Seed."""


def westeros_land(state: State) -> list[str]:
    """Land areas of Westeros (not Essos) in play."""
    far = {a["id"] for a in essos.essos_areas(content.data())}
    rules = state.rules
    return sorted(
        a for a in rules.land_areas if a not in far and rules.domain[a] == LAND
        and a not in state.blocked
    )  # fmt: skip


def others(state: State) -> list[str]:
    """The player houses other than Targaryen, in turn order."""
    return [h for h in tracks.turn_order(state) if h != TARGARYEN]


def home_of(state: State, house: str) -> str | None:
    """``house``'s home area."""
    return next((a.id for a in state.rules.areas.values() if a.home_of == house), None)


def may_pay(state: State, amount: int) -> bool:
    """Targaryen is in play and has ``amount`` available PT."""
    return loyalty.in_play(state) and state.power.get(TARGARYEN, 0) >= amount


# ---------------------------------------------------------------------------------- decisions


@dataclasses.dataclass(frozen=True, slots=True)
class PayForToken(ChooseOption):
    """Discard ``cost`` PT for one token on one of ``options`` (Empty Promises, Southron
    Ambitions, Strongholds of Resistance), or decline."""

    cost: int = 1

    def chosen(self, state: State, option: str) -> None:
        if option == DECLINE:
            return
        power.lose(state, self.house, self.cost)
        loyalty.place(state, option, self.reason)


@dataclasses.dataclass(frozen=True, slots=True)
class DomesticDisputes(ChooseOption):
    """Discard 1 PT, then up to 4 other houses, one token on each one's home area."""

    picked: tuple[str, ...] = ()

    def chosen(self, state: State, option: str) -> None:
        if option in (DECLINE, DONE):
            return
        if not self.picked:
            power.lose(state, self.house, 1)
        home = home_of(state, option)
        if home:
            loyalty.place(state, home, self.reason)
        picked = (*self.picked, option)
        left = tuple(h for h in self.options if h not in (*picked, DECLINE, DONE))
        if len(picked) < 4 and left:
            state.push(DomesticDisputes(self.house, (*left, DONE), self.reason, picked))


@dataclasses.dataclass(frozen=True, slots=True)
class LongPlanHouse(ChooseOption):
    """Discard 1 PT and choose another house, which places 2 tokens (The Long Plan)."""

    def chosen(self, state: State, option: str) -> None:
        if option == DECLINE:
            return
        power.lose(state, self.house, 1)
        state.push(PlaceTokens(option, tuple(westeros_land(state)), self.reason, 2))


@dataclasses.dataclass(frozen=True, slots=True)
class PlaceTokens(ChooseOption):
    """``house`` puts one token on each of ``count`` different areas of ``options``."""

    count: int = 1

    def chosen(self, state: State, option: str) -> None:
        loyalty.place(state, option, self.reason)
        left = tuple(a for a in self.options if a not in (option, DECLINE))
        if self.count > 1 and left:
            state.push(PlaceTokens(self.house, left, self.reason, self.count - 1))


@dataclasses.dataclass(frozen=True, slots=True)
class WateringTheSeed(ChooseOption):
    """Discard PT equal to Targaryen's loyalty points: tokens on 2 river-adjacent areas."""

    def chosen(self, state: State, option: str) -> None:
        if option == DECLINE:
            return
        power.lose(state, self.house, loyalty.points(state))
        loyalty.place(state, option, self.reason)
        left = tuple(a for a in self.options if a not in (option, DECLINE))
        if left:
            state.push(PlaceTokens(self.house, left, self.reason, 1))


@dataclasses.dataclass(frozen=True, slots=True)
class FireMadeFlesh(ChooseOption):
    """(a) destroy a dragon and shift a strength token into the box, (b) bring back a destroyed
    dragon in Pentos, or (c) nothing."""

    def chosen(self, state: State, option: str) -> None:
        if option == DESTROY_DRAGON:
            state.push(DestroyDragon(self.house, dragon_areas(state), self.reason))
        elif option == RETURN_DRAGON:
            board.add_units(state, loyalty.PENTOS, self.house, [DRAGON])
            state.emit("dragon_returned", house=self.house, area=loyalty.PENTOS)


@dataclasses.dataclass(frozen=True, slots=True)
class DestroyDragon(ChooseOption):
    """Fire Made Flesh (a): the area whose dragon is destroyed; then Targaryen chooses which
    token still on the round track moves into the box ("any one", 11.11.2), unless only one
    is left there."""

    def chosen(self, state: State, option: str) -> None:
        board.remove_units(state, option, [Unit(self.house, DRAGON)])
        state.emit("dragon_sacrificed", house=self.house, area=option)
        rounds = tokens_on_track(state)
        if len(rounds) > 1:
            choices = tuple(f"{TOKEN_PREFIX}{r}" for r in rounds)
            state.push(ShiftToken(self.house, choices, self.reason))
        else:
            shift_token(state, self.house, rounds[0])


@dataclasses.dataclass(frozen=True, slots=True)
class ShiftToken(ChooseOption):
    """Fire Made Flesh (a): the dragon strength token (``dragon_token_<its round>``) that
    moves into the box now (11.11.2). Its own prompt kind, so the AIs answer it by rule."""

    prompt_kind: ClassVar[str] = "dragon_token"
    logged: ClassVar[bool] = False  # dragon_token_shifted says which

    def chosen(self, state: State, option: str) -> None:
        shift_token(state, self.house, int(option.removeprefix(TOKEN_PREFIX)))


def shift_token(state: State, house: str, round_number: int) -> None:
    """The token of round ``round_number`` leaves the round track for the box (11.11.2)."""
    state.ext[SHIFTED] = (*state.ext.get(SHIFTED, ()), round_number)
    state.emit("dragon_token_shifted", house=house, round=round_number)


def latest_token(view: Mapping[str, Any], rules: Ruleset, rnd: random.Random) -> Action:
    """The AIs' answer to ``dragon_token``: the latest token. Every token reaches the box by
    its round anyway (11.5.2), so shifting the latest one makes the dragons 1 stronger in every
    round until then, and an earlier one only until its own, sooner, round."""
    options = view["prompt"]["data"]["options"]
    return Choose(max(options, key=lambda o: int(o.removeprefix(TOKEN_PREFIX))))


@dataclasses.dataclass(frozen=True, slots=True)
class MoveToken(ChooseOption):
    """Scattering Dissent / Word Spreads Quickly: ``house`` moves one token ("from>to");
    the next houses of ``queue`` follow. Targaryen may cancel another house's move for
    ``cancel_cost`` (11.11.2); its own move it has just chosen, so it is never asked about it."""

    queue: tuple[str, ...] = ()
    cancel_cost: int = 1

    logged: ClassVar[bool] = False  # loyalty_moved or loyalty_move_cancelled names the move

    def chosen(self, state: State, option: str) -> None:
        rest = MovingTokens(self.queue, self.reason, self.cancel_cost)
        if self.house != TARGARYEN and may_pay(state, self.cancel_cost):
            state.push(
                CancelMove(TARGARYEN, (CANCEL, ALLOW), self.reason, option, self.house, rest)
            )
        else:
            apply_move(state, option)
            state.push(rest)


@dataclasses.dataclass(frozen=True, slots=True)
class CancelMove(ChooseOption):
    """Targaryen cancels ``mover``'s token ``move`` ("from>to") by discarding PT, or allows
    it (11.11.2); then the remaining houses move. Its own prompt kind, whose data name the
    move, the mover and the cost."""

    move: str = ""
    mover: str = ""
    rest: MovingTokens | None = None

    prompt_kind: ClassVar[str] = "loyalty_cancel"
    logged: ClassVar[bool] = False  # loyalty_moved or loyalty_move_cancelled says which

    def prompts(self, state: State) -> dict[str, Prompt]:
        p = ChooseOption.prompts(self, state)[self.house]
        assert self.rest is not None
        data = {**p.data, "move": self.move, "mover": self.mover, "cost": self.rest.cancel_cost}
        return {self.house: dataclasses.replace(p, data=data)}

    def chosen(self, state: State, option: str) -> None:
        assert self.rest is not None
        if option == CANCEL:
            power.lose(state, self.house, self.rest.cancel_cost)
            source, _, target = self.move.partition(">")
            state.emit("loyalty_move_cancelled", house=self.house, source=source, target=target)
        else:
            apply_move(state, self.move)
        state.push(self.rest)


def cancel_answer(view: Mapping[str, Any], rules: Ruleset, rnd: random.Random) -> Action:
    """The AIs' answer to ``loyalty_cancel``: cancel a move that takes a token from an area
    Targaryen holds or borders to one it neither holds nor borders (where it could not soon
    collect it, 11.6.3); allow any other move and keep the PT."""
    data = view["prompt"]["data"]
    mine = {a for a, h in view["control"].items() if h == view["house"]}

    def near(area: str) -> bool:
        return area in mine or any(a in mine for a in rules.adjacency[area])

    source, _, target = data["move"].partition(">")
    return Choose(CANCEL if near(source) and not near(target) else ALLOW)


@dataclasses.dataclass(frozen=True, slots=True)
class MovingTokens(Step):
    """The next house of ``queue`` moves one token to an adjacent land area, if any can."""

    queue: tuple[str, ...]
    reason: str
    cancel_cost: int

    def run(self, state: State) -> None:
        if not self.queue:
            return
        house, rest = self.queue[0], self.queue[1:]
        moves = token_moves(state)
        if moves:
            state.push(MoveToken(house, moves, self.reason, rest, self.cancel_cost))
        else:
            state.push(MovingTokens(rest, self.reason, self.cancel_cost))


def token_moves(state: State) -> tuple[str, ...]:
    """Every "from>to" move of one token to an adjacent land area (11.11)."""
    rules = state.rules
    return tuple(
        f"{a}>{b}"
        for a in sorted(loyalty.tokens(state))
        for b in sorted(board.neighbours(state, a))
        if rules.domain[b] == LAND and b not in state.blocked
    )


def apply_move(state: State, move: str) -> None:
    """Move a token ("from>to"), then Targaryen collects (a collection point, 11.6.3)."""
    source, _, target = move.partition(">")
    loyalty.move(state, source, target)
    state.emit("loyalty_moved", source=source, target=target)
    loyalty.collect(state)


def dragon_areas(state: State) -> tuple[str, ...]:
    """Areas holding a Targaryen dragon."""
    return tuple(
        sorted(a for a, units in state.units.items() for u in units[:1] if u.house == TARGARYEN
               and any(x.type == DRAGON for x in units))
    )  # fmt: skip


# ---------------------------------------------------------------------------------- cards


def tokens_on_track(state: State) -> tuple[int, ...]:
    """The rounds of the dragon strength tokens still on the round track (11.5.2, 11.11.2)."""
    rounds = rounds_of(content.data(), state.options)
    return on_track(rounds, state.round, state.ext.get(SHIFTED, ()))


def pay_for_token(areas: tuple[str, ...]) -> Callable[[State, str], None]:
    """The option of Empty Promises, Southron Ambitions and Strongholds of Resistance."""

    def offer(state: State, card: str) -> None:
        if may_pay(state, 1):
            state.push(PayForToken(TARGARYEN, (*areas, DECLINE), card))

    return offer


def domestic_disputes(state: State, card: str) -> None:
    if may_pay(state, 1):
        state.push(DomesticDisputes(TARGARYEN, (*others(state), DECLINE), card))


def fire_made_flesh(state: State, card: str) -> None:
    if not loyalty.in_play(state):
        return
    options = []
    if dragon_areas(state) and tokens_on_track(state):
        options.append(DESTROY_DRAGON)
    dragons = sum(u.type == DRAGON for units in state.units.values() for u in units)
    if (
        dragons < state.rules.houses[TARGARYEN].unit_limits.get(DRAGON, 0)
        and board.controller(state, loyalty.PENTOS) == TARGARYEN
        and board.within_supply(
            state, TARGARYEN, {loyalty.PENTOS: len(state.units.get(loyalty.PENTOS, ())) + 1}
        )
    ):
        options.append(RETURN_DRAGON)
    if options:
        state.push(FireMadeFlesh(TARGARYEN, (*options, DECLINE), card))


def scattering_dissent(state: State, card: str) -> None:
    loyalty.collect(state)  # before the first move too, as before every later one (11.6.3)
    state.push(MovingTokens(tuple(reversed(tracks.turn_order(state))), card, 1))


def word_spreads_quickly(state: State, card: str) -> None:
    loyalty.collect(state)  # before the first move too, as before every later one (11.6.3)
    state.push(MovingTokens(tuple(tracks.turn_order(state)), card, 2))


def the_long_plan(state: State, card: str) -> None:
    if may_pay(state, 1):
        state.push(LongPlanHouse(TARGARYEN, (*others(state), DECLINE), card))


def watering_the_seed(state: State, card: str) -> None:
    if not may_pay(state, loyalty.points(state)):
        return
    areas = tuple(a for a in RIVER_ADJACENT if board.controller(state, a) != TARGARYEN)
    if len(areas) >= 2:
        state.push(WateringTheSeed(TARGARYEN, (*areas, DECLINE), card))


def playing_with_fire(state: State, card: str) -> None:
    areas = tuple(
        a for a in westeros_land(state)
        if board.controller(state, a) is None and a not in state.neutral
    )  # fmt: skip
    if may_pay(state, 1) and areas and any(land_units(state, h) for h in others(state)):
        state.push(PlayingWithFireArea(TARGARYEN, (*areas, DECLINE), card))


def land_units(state: State, house: str) -> tuple[str, ...]:
    """The land unit types ``house`` still has available to place (never dragons)."""
    return tuple(
        t.id for t in state.rules.unit_types.values()
        if t.domain == LAND and t.musterable and board.available(state, house, t.id) > 0
    )  # fmt: skip


@dataclasses.dataclass(frozen=True, slots=True)
class PlayingWithFireArea(ChooseOption):
    """Discard 1 PT and choose an uncontrolled Westeros land area without neutral force."""

    def chosen(self, state: State, option: str) -> None:
        if option == DECLINE:
            return
        power.lose(state, self.house, 1)
        houses = tuple(h for h in others(state) if land_units(state, h))
        state.push(PlayingWithFireHouse(self.house, houses, self.reason, option))


@dataclasses.dataclass(frozen=True, slots=True)
class PlayingWithFireHouse(ChooseOption):
    """Choose the other house that places a unit there; the token goes on the area."""

    area: str = ""

    def chosen(self, state: State, option: str) -> None:
        loyalty.place(state, self.area, self.reason)
        state.push(PlaceUnit(option, land_units(state, option), self.reason, self.area))


@dataclasses.dataclass(frozen=True, slots=True)
class PlaceUnit(ChooseOption):
    """The chosen house places one of its available land units (its choice) in ``area``."""

    area: str = ""

    def chosen(self, state: State, option: str) -> None:
        board.add_units(state, self.area, self.house, [option])
        state.emit("loyalty_unit_placed", house=self.house, unit=option, area=self.area)


CARDS: dict[str, tuple[str, tuple[str, ...], Callable[[State, str], None], str]] = {
    "domestic-disputes": (
        N_("Domestic Disputes"), ("storms-end",), domestic_disputes,
        N_("Targaryen may discard 1 Power token to put a loyalty token on the home area of up "
           "to 4 other houses."),
    ),
    "empty-promises": (
        N_("Empty Promises"), ("the-stony-shore",),
        pay_for_token(("moat-cailin", "the-mountains-of-the-moon")),
        N_("Targaryen may discard 1 Power token to put a loyalty token on Moat Cailin or The "
           "Mountains of the Moon."),
    ),
    "fire-made-flesh": (
        N_("Fire Made Flesh"), ("the-reach",), fire_made_flesh,
        N_("Targaryen may destroy a dragon to move a dragon strength token into the box, or "
           "bring a destroyed dragon back to Pentos."),
    ),
    "playing-with-fire": (
        N_("Playing with Fire"), ("riverrun", "the-arbor"), playing_with_fire,
        N_("Targaryen may discard 1 Power token: on an uncontrolled land area of Westeros "
           "without neutral force, a loyalty token, and another house places one of its "
           "available land units there."),
    ),
    "scattering-dissent": (
        N_("Scattering Dissent"), ("karhold", "oldtown"), scattering_dissent,
        N_("In reverse turn order each house moves a loyalty token to an adjacent land area; "
           "Targaryen may cancel each move by discarding 1 Power token."),
    ),
    "southron-ambitions": (
        N_("Southron Ambitions"), ("searoad-marches", "dornish-marches"),
        pay_for_token(("blackwater", "the-boneway")),
        N_("Targaryen may discard 1 Power token to put a loyalty token on Blackwater or The "
           "Boneway."),
    ),
    "strongholds-of-resistance": (
        N_("Strongholds of Resistance"), ("seagard",),
        pay_for_token(("harrenhal", "white-harbor")),
        N_("Targaryen may discard 1 Power token to put a loyalty token on Harrenhal or White "
           "Harbor."),
    ),
    "the-long-plan": (
        N_("The Long Plan"), ("castle-black", "yronwood"), the_long_plan,
        N_("Targaryen may discard 1 Power token: another house puts a loyalty token on each of "
           "2 different land areas of Westeros."),
    ),
    "watering-the-seed": (
        N_("Watering the Seed"), (), watering_the_seed,
        N_("Targaryen may discard as many Power tokens as its loyalty points to put a loyalty "
           "token on 2 river-adjacent areas it does not control."),
    ),
    "word-spreads-quickly": (
        N_("Word Spreads Quickly"), ("crackclaw-point", "three-towers"), word_spreads_quickly,
        N_("In turn order each house moves a loyalty token to an adjacent land area; Targaryen "
           "may cancel each move by discarding 2 Power tokens."),
    ),
}  # fmt: skip
"""Card id → (name, printed token areas, Targaryen's option, text), 11.11.2."""


def effect(card: str) -> Callable[[State], None]:
    """Resolve ``card``: printed tokens (11.11.2), then Targaryen's option, then collect."""
    _, printed, option, _ = CARDS[card]

    def resolve(state: State) -> None:
        for area in printed:
            loyalty.place(state, area, card)
        option(state, card)

    return resolve


def westeros_cards() -> list[WesterosCard]:
    """The 10 cards of deck IV, one each, no wildling icon (11.11.1)."""
    return [
        WesterosCard(card, name, DECK, 1, False, effect(card), text=text)
        for card, (name, _, _, text) in CARDS.items()
    ]


def setup(state: State) -> None:
    """Deck IV is used only with 8 players (11.11): other games drop it."""
    if not loyalty.in_play(state) and len(state.westeros_decks) > DECK - 1:
        state.westeros_decks = state.westeros_decks[: DECK - 1]
