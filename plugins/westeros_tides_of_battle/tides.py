"""Tides of Battle (RULES.md 10, combat step 5.4.5) through the engine's rule hooks.

In a combat between two houses, after the house-card abilities: both combatants draw one card
in secret (kept under the ``_tides`` key of ``state.combat.data``), the Valyrian Steel Blade
holder may use the unused Blade to redraw (10.3), then both cards are revealed (public key
``tides``). Strength and sword/fortification icons count through the modifier hooks; a skull
makes the opponent destroy one more participating unit after casualties (10.4).

Interpretation (10.5, S&R): a fresh, full 24-card deck is used for every combat. The deck for
the next combat is ``state.ext["_tides_deck"]`` (secret): shuffled at setup, and shuffled again
from all 24 cards as soon as a combat's cards are revealed.

Every hook checks ``state.options["tides_of_battle"]`` when it runs, so one Ruleset serves
games with the option on and off."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, ClassVar

from westeros.engine import rng, tracks
from westeros.engine.actions import Action, Choose
from westeros.engine.combat.abilities import ability_of
from westeros.engine.combat.context import ATTACKER, DEFENDER, Combat
from westeros.engine.combat.strength import turn_sides
from westeros.engine.combat.units import DestroyParticipants
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalChoice
from westeros.engine.flow import Decision, Prompt, Step
from westeros.engine.state import State

OPTION = "tides_of_battle"
DECK = "_tides_deck"
DRAWN = "_tides"
REVEALED = "tides"
KEEP = "keep"
REDRAW = "redraw"


@dataclasses.dataclass(frozen=True, slots=True)
class TidesCard:
    """One Tides of Battle card (10.1)."""

    id: str
    count: int
    strength: int
    swords: int = 0
    fortifications: int = 0
    skulls: int = 0


@cache
def cards() -> dict[str, TidesCard]:
    """The card kinds of the deck, by id (data/tides.json)."""
    text = resources.files(__package__).joinpath("data", "tides.json").read_text("utf-8")
    return {c["id"]: TidesCard(**c) for c in json.loads(text)["cards"]}


@cache
def full_deck() -> tuple[str, ...]:
    """All 24 cards, unshuffled (10.1)."""
    return tuple(c.id for c in cards().values() for _ in range(c.count))


def enabled(state: State) -> bool:
    """Is Tides of Battle on in this game?"""
    return bool(state.options.get(OPTION))


def shuffle_deck(state: State) -> tuple[str, ...]:
    """Shuffle a full deck into ``state.ext`` and return it (10.5)."""
    deck, state.seed = rng.shuffled(state.seed, full_deck())
    state.ext[DECK] = deck
    return deck


def draw(state: State) -> str:
    """Take the top card of the combat's deck (a full deck is shuffled if there is none)."""
    deck = state.ext.get(DECK) or shuffle_deck(state)
    state.ext[DECK] = deck[1:]
    return deck[0]


def drawn(combat: Combat, key: str) -> dict[str, str]:
    """{side: card id} stored under ``key`` (empty before the draw / the reveal)."""
    return dict(combat.get(key, ()))


# ---------------------------------------------------------------------------------- steps


@dataclasses.dataclass(frozen=True, slots=True)
class TidesDraw(Step):
    """Attacker and defender each draw one card and look at it privately (10.2)."""

    preview_note: ClassVar[str] = "Tides of Battle cards are still to be drawn (10.2)."

    def run(self, state: State) -> None:
        combat: Combat = state.combat
        pairs = ((ATTACKER, draw(state)), (DEFENDER, draw(state)))
        state.combat = combat.with_data(DRAWN, pairs)
        for which, card in pairs:
            house = combat.side(which).house
            state.emit("tides_drawn", visible_to=frozenset({house}), house=house, card=card)


@dataclasses.dataclass(frozen=True, slots=True)
class TidesRedraw(Decision):
    """The Valyrian Steel Blade holder, if fighting and the Blade is unused, may discard his
    card and draw a replacement he must keep; the Blade is then used for the round (10.3,
    §12.9)."""

    def holder(self, state: State) -> str | None:
        """The combatant who may redraw now, or None."""
        if state.blade_used:
            return None
        blade = tracks.holder(state, tracks.FIEFDOMS)
        return blade if state.combat.side_of(blade) is not None else None

    def prompts(self, state: State) -> dict[str, Prompt]:
        house = self.holder(state)
        if house is None:
            return {}
        card = drawn(state.combat, DRAWN)[state.combat.side_of(house)]
        data = {"options": [KEEP, REDRAW], "card": card, "reason": "Tides of Battle (10.3)"}
        return {house: Prompt(house, "tides_redraw", (Choose.kind,), data)}

    def act(self, state: State, house: str, action: Action) -> None:
        assert isinstance(action, Choose)
        if action.option not in (KEEP, REDRAW):
            raise IllegalChoice(f"{action.option!r} is not one of {[KEEP, REDRAW]}", rule="10.3")
        state.pop()
        if action.option == KEEP:
            return
        combat: Combat = state.combat
        which = combat.side_of(house)
        card = draw(state)
        cards_now = drawn(combat, DRAWN) | {which: card}
        state.combat = combat.with_data(DRAWN, tuple(sorted(cards_now.items())))
        state.blade_used = True
        state.emit("blade_used", house=house, reason="Tides of Battle redraw (10.3)")
        state.emit("tides_drawn", visible_to=frozenset({house}), house=house, card=card)

    def random_action(self, state: State, house: str, rnd: random.Random) -> Action:
        return Choose(rnd.choice((KEEP, REDRAW)))


@dataclasses.dataclass(frozen=True, slots=True)
class TidesReveal(Step):
    """Both cards are revealed at once (10.4); a full deck is shuffled for the next combat
    (10.5)."""

    def run(self, state: State) -> None:
        combat: Combat = state.combat
        pairs = combat.get(DRAWN, ())
        state.combat = dataclasses.replace(
            combat, data=tuple((k, v) for k, v in combat.data if k != DRAWN)
        ).with_data(REVEALED, pairs)
        state.emit(
            "tides_revealed",
            cards={combat.side(which).house: card for which, card in pairs},
        )
        shuffle_deck(state)


WEAK_CARDS = frozenset({"zero"})


def redraw_weak(view: Mapping[str, Any], rules: Ruleset, rnd: random.Random) -> Action:
    """The AIs' answer to the redraw (10.3): redraw only a card that adds nothing."""
    return Choose(REDRAW if view["prompt"]["data"]["card"] in WEAK_CARDS else KEEP)


# ---------------------------------------------------------------------------------- hooks


def setup(state: State) -> None:
    """Shuffle the deck at setup when the option is on (10.1)."""
    if enabled(state):
        shuffle_deck(state)


def combat_steps(state: State, combat: Combat) -> list[Step]:
    """Draw, Blade redraw, reveal (5.4.5)."""
    if not enabled(state):
        return []
    return [TidesDraw(), TidesRedraw(), TidesReveal()]


def strength_modifier(state: State, combat: Combat, side: str) -> int:
    """The revealed card's strength for ``side`` (10.4, 5.4.7)."""
    card = drawn(combat, REVEALED).get(side)
    return cards()[card].strength if card else 0


def icon_modifier(state: State, combat: Combat, side: str) -> tuple[int, int]:
    """The revealed card's (swords, fortifications) for ``side`` (10.4, 5.4.9)."""
    card = drawn(combat, REVEALED).get(side)
    if not card:
        return (0, 0)
    kind = cards()[card]
    return (kind.swords, kind.fortifications)


def after_casualties(state: State, combat: Combat) -> None:
    """Skulls (10.4, 5.4.9 item 5): the opponent of each skull destroys one more of its
    remaining participating units of its choice, whoever won; fortifications do not help, a
    card that prevents casualties (The Blackfish, §12.37) does."""
    revealed = drawn(combat, REVEALED)
    steps = []
    for which in turn_sides(state, combat):
        card = revealed.get(combat.other(which))
        if not card or not cards()[card].skulls:
            continue
        own = combat.side(which).card
        if own is not None and ability_of(state, own).prevents_casualties:
            continue
        house = combat.side(which).house
        count = cards()[card].skulls
        steps.append(DestroyParticipants(house, which, count, "Tides of Battle skull (10.4)"))
    state.push(*steps)
