"""Random-play conformance of 7-player Mother of Dragons games with sea orders and the Iron
Bank (RULES.md 11.8, 11.9): full games with uniformly random legal decisions, the invariants
of ``westeros.conformance`` checked after every action, and AI seats of every kind answering
the new prompts legally."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from westeros.ai import BaselineBot, PassiveBot, RandomBot, StrongBot
from westeros.ai.difficulty import EASY
from westeros.ai.protocol import Player
from westeros.ai.runner import play_game
from westeros.conformance import random_game
from westeros.engine.content import Ruleset
from westeros.plugins import build_ruleset

from .test_sea_orders_placement import BOTH, SEA_TOKENS

GAMES = 5


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(BOTH)


@pytest.mark.parametrize("seed", range(GAMES))
def test_11_9_random_7_player_game_with_the_iron_bank_keeps_every_invariant(
    rules: Ruleset, seed: int
) -> None:
    result = random_game(rules, 7, 9100 + seed, BOTH)
    assert result.problems == []
    assert result.state.winner in result.state.houses
    assert result.state.ext["iron_bank_loans"]  # loans were bought


def test_11_8_sea_tokens_are_placed_in_random_games(rules: Ruleset) -> None:
    result = random_game(rules, 7, 9200, BOTH)
    tokens = {
        token
        for _, action in result.log
        if action.get("kind") == "place_orders"
        for _, token in action["orders"]
    }
    assert tokens >= SEA_TOKENS


SEATS: dict[str, Callable[[int], Player]] = {
    "baseline": BaselineBot,
    "random": RandomBot,
    "passive": lambda i: PassiveBot(),
    "easy": lambda i: StrongBot(i, EASY),
}


@pytest.mark.parametrize("level", sorted(SEATS))
def test_11_9_every_ai_plays_a_game_with_the_iron_bank_without_fault(
    rules: Ruleset, level: str
) -> None:
    record = play_game(rules, [SEATS[level](i) for i in range(7)], 5, BOTH)
    assert record.faults == []
    assert record.winner in record.seats
