"""Hidden information (issue 2, acceptance 4; RULES.md 0.4.4): at every decision point of random
games, no house's view holds another house's unrevealed orders, bids or house cards, nor any
deck order beyond what the rules reveal (nor a plugin's hidden ``_`` deck, such as the Iron
Bank's): in the base game and in 7- and 8-player Mother of Dragons games with sea orders and the
Iron Bank, where Arryn's and Targaryen's hands and orders stay secret like every house's."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from westeros.engine import rng
from westeros.engine.content import Ruleset
from westeros.engine.flow import Simultaneous, apply, pending, random_action
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.engine.view import player_view, visible
from westeros.plugins import build_ruleset

VIEWERS_EXTRA = (None,)


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


def views(state: State) -> dict[str | None, dict]:
    return {h: player_view(state, h) for h in (*state.houses, *VIEWERS_EXTRA)}


def check_every_decision_point(
    rules: Ruleset, players: int, seed: int, options: Mapping[str, Any] | None = None
) -> None:
    """Play a random game, checking at every decision point that no view leaks a secret."""
    rnd = random.Random(seed)
    state = new_game(rules, players, seed, options)
    while pending(state):
        before = views(state)
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
            # A secret commitment: others see only that the house has committed.
            after = views(new)
            for viewer, view in after.items():
                if viewer == house:
                    continue
                assert public(view) == public(before[viewer]), (
                    f"{house}'s secret {action} changed {viewer}'s view"
                )
                assert house in view["committed"] and house not in before[viewer]["committed"]
                seen = [e for e in events if visible(e, viewer)]
                assert all(e.kind == "committed" and e.data == {"house": house} for e in seen)
            if rnd.random() < 0.5:
                # A take-back (4.1, 3.6.2, 7.2.1, 5.4.3): the replaced and the new commitment
                # never reach another seat; the house itself sees its new one.
                again = random_action(new, house, rnd)
                new, events = apply(new, house, again)
                for viewer, view in views(new).items():
                    if viewer == house:
                        assert view["take_back"]["commitment"] == again.to_json()
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
