"""Hidden information (issue 2, acceptance 4; RULES.md 0.4.4): at every decision point of random
games, no house's view holds another house's unrevealed orders, bids or house cards, nor any
deck order beyond what the rules reveal (nor a plugin's hidden ``_`` deck, such as the Iron
Bank's): in the base game and in 7- and 8-player Mother of Dragons games with sea orders and the
Iron Bank, where Arryn's and Targaryen's hands and orders stay secret like every house's; and in
3-6 player games with vassals (11.10), where the cards drawn for a vassal's combat are seen by
the vassal and its commander of the round alone (11.10.8), every other hand by all (0.4.4)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from westeros.engine import rng
from westeros.engine.actions import Action
from westeros.engine.content import Ruleset
from westeros.engine.flow import Simultaneous, apply, pending, random_action
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.engine.view import player_view, visible
from westeros.plugins import build_ruleset

VIEWERS_EXTRA = (None,)
Views = dict[str | None, dict]


def reshuffled(state: State, salt: int) -> State:
    """A copy whose hidden deck orders differ (the known top wildling card stays on top)."""
    s = state.copy()
    decks = []
    seed = salt
    for deck in s.westeros_decks:
        new, seed = rng.shuffled(seed, deck)
        decks.append(new)
    s.westeros_decks = tuple(decks)
    if len(s.wildling_deck) > 1:
        rest, seed = rng.shuffled(seed, s.wildling_deck[1:])
        top = s.wildling_deck[:1]
        if not s.wildling_seen:
            top, rest = rest[:1], s.wildling_deck[:1] + rest[1:]
        s.wildling_deck = top + rest
    for key, value in list(s.ext.items()):
        if key.startswith("_") and isinstance(value, tuple):
            s.ext[key], seed = rng.shuffled(seed, value)
    return s


def public(view: dict) -> dict:
    """A view without who is still deciding and who has committed."""
    return {k: v for k, v in view.items() if k not in ("waiting_for", "committed")}


def settled(view: dict) -> dict:
    """``public(view)`` without the questions asked (of the house or of its vassals)."""
    return {k: v for k, v in public(view).items() if k not in ("prompt", "answering_for")}


def answerers(state: State, house: str) -> set[str]:
    """The seats that answer ``house``'s questions: itself and, for a vassal, its commander
    of the round (11.10.8)."""
    commanders = dict(state.ext.get("vassal_commanders", ()))
    return {house} | ({commanders[house]} if house in commanders else set())


def other_action(state: State, house: str) -> Action:
    """Another random legal answer of ``house`` (drawn without touching the game's dice)."""
    return random_action(state, house, random.Random(state.serial))


def views(state: State) -> Views:
    return {h: player_view(state, h) for h in (*state.houses, *VIEWERS_EXTRA)}


def check_every_decision_point(
    rules: Ruleset,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    also: Callable[[State, Views], None] | None = None,
) -> None:
    """Play a random game, checking at every decision point that no view leaks a secret (and
    whatever ``also`` checks of the state and its views)."""
    rnd = random.Random(seed)
    state = new_game(rules, players, seed, options)
    while pending(state):
        before = views(state)
        if also is not None:
            also(state, before)
        # Deck orders beyond what is revealed never show in any view.
        assert views(reshuffled(state, seed + state.serial)) == before
        waiting = pending(state)
        house = rnd.choice(sorted(waiting))
        action = random_action(state, house, rnd)
        secret = isinstance(state.stack[-1], Simultaneous)
        new, events = apply(state, house, action)
        still_waiting = (
            secret
            and pending(new)
            and type(new.stack[-1]) is type(state.stack[-1])
            and new.stack[:-1] == state.stack[:-1]
        )
        if still_waiting:
            # A secret commitment: others see only that the house has committed and, once
            # every player has, who is asked next (vassal orders, 11.10.4), never what it was:
            # another commitment would have shown them exactly the same.
            after = views(new)
            instead = views(apply(state, house, other_action(state, house))[0])
            for viewer, view in after.items():
                if viewer in answerers(state, house):
                    continue
                assert view == instead[viewer], f"{viewer}'s view shows {house}'s {action}"
                assert settled(view) == settled(before[viewer]), (
                    f"{house}'s secret {action} changed {viewer}'s view"
                )
                assert house in view["committed"] and house not in before[viewer]["committed"]
                seen = [e for e in events if visible(e, viewer)]
                assert all(e.kind == "committed" and e.data == {"house": house} for e in seen)
            if rnd.random() < 0.5:
                # A take-back (4.1, 3.6.2, 7.2.1, 5.4.3): the replaced and the new commitment
                # never reach another seat; the house itself (and a vassal's commander, who
                # answers for it, 11.10.8) sees the new one.
                again = random_action(new, house, rnd)
                new, events = apply(new, house, again)
                for viewer, view in views(new).items():
                    if viewer == house:
                        assert view["take_back"]["commitment"] == again.to_json()
                        continue
                    if viewer in answerers(state, house):
                        own = view["answering_for"][house]["take_back"]["commitment"]
                        assert own == again.to_json()
                        continue
                    assert view == after[viewer], f"{house}'s take-back changed {viewer}'s view"
                    seen = [e for e in events if visible(e, viewer)]
                    assert [(e.kind, e.data) for e in seen] == [("committed", {"house": house})]
        state = new


@pytest.mark.parametrize("seed", range(100))
def test_no_view_leaks_secrets_at_any_decision_point(rules: Ruleset, seed: int) -> None:
    check_every_decision_point(rules, 3 + seed % 4, seed)


MOD_BANK = {"mother_of_dragons": True, "mod_sea_orders": True, "mod_iron_bank": True}


@pytest.fixture(scope="module")
def mod_bank_rules() -> Ruleset:
    return build_ruleset(MOD_BANK)


@pytest.mark.parametrize("players", [7, 8])
def test_11_no_view_of_a_mother_of_dragons_game_with_the_iron_bank_leaks_secrets(
    mod_bank_rules: Ruleset, players: int
) -> None:
    check_every_decision_point(mod_bank_rules, players, 1300 + players, MOD_BANK)


VASSALS = {"mother_of_dragons": True, "mod_vassals": True}
VASSAL_GAMES = {3: VASSALS, 4: {**MOD_BANK, **VASSALS}, 5: VASSALS, 6: {**MOD_BANK, **VASSALS}}


class VassalHands:
    """Checks, at each decision point, who sees which hand in a game with vassals: a vassal's
    drawn cards only the vassal and its commander of the round (11.10.8), a player's hand every
    seat and spectators (0.4.4). Counts the points where some vassal held cards."""

    def __init__(self) -> None:
        self.points_with_vassal_cards = 0

    def __call__(self, state: State, seen: Views) -> None:
        players = set(state.setup.players)
        commanders = dict(state.ext.get("vassal_commanders", ()))
        held = False
        for house, cards in state.hands.items():
            if house in players:
                allowed = set(seen)
            else:
                allowed = {house, commanders.get(house)}
                held = held or bool(cards)
            for viewer, view in seen.items():
                expected = list(cards) if viewer in allowed else []
                assert view["hands"][house] == expected, f"{viewer} sees {house}'s hand wrongly"
                answers = view.get("answering_for", {}).get(house, {})
                if viewer not in allowed:
                    assert not answers.get("prompt") and not answers.get("take_back"), (
                        f"{viewer} sees a question of {house}, a vassal it does not command"
                    )
        self.points_with_vassal_cards += held


@pytest.mark.parametrize("players", sorted(VASSAL_GAMES))
def test_11_10_8_only_a_vassals_commander_sees_its_cards_and_no_view_leaks_secrets(
    players: int,
) -> None:
    options = VASSAL_GAMES[players]
    hands = VassalHands()
    check_every_decision_point(build_ruleset(options), players, 1310 + players, options, hands)
    assert hands.points_with_vassal_cards > 0  # the game had vassal combats to check
