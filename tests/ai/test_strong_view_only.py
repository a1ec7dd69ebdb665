"""The strong AI never reads anything outside its view (RULES.md 0.4.4; issue 7 acceptance 6):
two states that differ only in hidden information — other houses' secret orders, bids and house
cards, the order of every deck, the engine's random seed, the Tides of Battle deck — get the same
decision from a strong AI with the same seed, at every difficulty level, in every kind of
decision it searches (Planning, bids, house cards, March), and the same predictions Hard keeps to
read its opponents by (``opponents``)."""

from __future__ import annotations

import pytest

from tests.ai.helpers import stark_attacks_white_harbor
from tests.ai.test_view_only import commit_others, reshuffled, twins
from tests.builders import act, blank, order, put, run
from westeros.ai import ask
from westeros.ai.difficulty import EASY, HARD, NORMAL, Difficulty
from westeros.ai.strong import StrongBot
from westeros.engine import rng
from westeros.engine.actions import Bid, Choose
from westeros.engine.bidding import ClashOfKings
from westeros.engine.content import Ruleset
from westeros.engine.flow import pending
from westeros.engine.march import MarchTurn
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.engine.view import player_view

LEVELS = [EASY, NORMAL, HARD]
NO_TIME_LIMIT = 600.0


def same_decision(level: Difficulty, one: State, two: State, house: str) -> None:
    for seed in range(2):
        first, _ = ask(StrongBot(seed, level), one, house, NO_TIME_LIMIT)
        second, _ = ask(StrongBot(seed, level), two, house, NO_TIME_LIMIT)
        assert first == second


@pytest.mark.parametrize("level", LEVELS, ids=lambda d: d.id)
def test_0_4_4_other_houses_secret_orders_and_deck_order_change_no_planning(
    rules: Ruleset, level: Difficulty
) -> None:
    state = new_game(rules, 6, 5)
    one, two = twins(state, "stark", commit_others("stark"))
    same_decision(level, one, two, "stark")


def test_0_4_4_other_houses_secret_orders_change_nothing_hard_expects_to_see_revealed(
    rules: Ruleset,
) -> None:
    state = new_game(rules, 6, 5)
    one, two = twins(state, "stark", commit_others("stark"))
    kept = []
    for twin in (one, two):
        bot = StrongBot(0, HARD)
        ask(bot, twin, "stark", NO_TIME_LIMIT)
        assert bot.opponents is not None and bot.opponents.expected is not None
        kept.append(bot.opponents.expected)
    assert kept[0] == kept[1]


@pytest.mark.parametrize("level", LEVELS, ids=lambda d: d.id)
def test_0_4_4_other_houses_secret_bids_change_no_bid(rules: Ruleset, level: Difficulty) -> None:
    s = blank(rules, keep_units=True)
    s.power = {h: 3 + i for i, h in enumerate(s.houses)}
    run(s, ClashOfKings())

    def commits(state: State, seed: int) -> State:
        for other in sorted(pending(state)):
            if other != "stark":
                state = act(state, other, Bid(seed % (state.power[other] + 1)))
        return state

    one, two = twins(s, "stark", commits)
    same_decision(level, one, two, "stark")


@pytest.mark.parametrize("level", LEVELS, ids=lambda d: d.id)
def test_0_4_4_the_opponents_chosen_house_card_changes_no_card(
    rules: Ruleset, level: Difficulty
) -> None:
    s = stark_attacks_white_harbor(rules, ("knight", "footman"), ("footman", "footman"))

    def commits(state: State, seed: int) -> State:
        card = ("euron-crows-eye", "aeron-damphair")[seed - 1]
        return act(state, "greyjoy", Choose(card))

    one, two = twins(s, "stark", commits)
    same_decision(level, one, two, "stark")


def hidden_twin(state: State, salt: int) -> State:
    """``state`` with every part the view hides changed: deck orders, the random seed and the
    Tides of Battle deck (10.5)."""
    s = reshuffled(state, salt)
    s.seed = rng.seed_from(f"other seed {salt}")
    deck, _ = rng.shuffled(salt, [f"tides-{i}" for i in range(24)])
    s.ext["_tides_deck"] = deck
    return s


@pytest.mark.parametrize("level", LEVELS, ids=lambda d: d.id)
def test_0_4_4_the_hidden_seed_and_decks_change_no_march(rules: Ruleset, level: Difficulty) -> None:
    s = blank(rules)
    s.options["tides_of_battle"] = True
    put(s, "winterfell", "stark", "knight", "knight", "footman")
    put(s, "white-harbor", "greyjoy", "footman")
    put(s, "moat-cailin", "greyjoy", "footman")
    order(s, "winterfell", "march+1*")
    order(s, "white-harbor", "defense+1")
    run(s, MarchTurn("stark"))
    two = hidden_twin(s, 7)
    assert s.hash() != two.hash()
    assert player_view(s, "stark") == player_view(two, "stark")
    same_decision(level, s, two, "stark")
