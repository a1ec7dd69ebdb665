"""Random-play conformance of 7-player Mother of Dragons games (RULES.md 11.2.1): full games with
uniformly random legal decisions, the invariants of ``westeros.conformance`` checked after every
action."""

from __future__ import annotations

import pytest

from westeros.ai import BaselineBot
from westeros.ai.runner import play_game
from westeros.conformance import random_game
from westeros.engine.content import Ruleset

from .conftest import MOD

GAMES = 10


@pytest.mark.parametrize("seed", range(GAMES))
def test_11_2_1_random_7_player_game_keeps_every_invariant(mod_rules: Ruleset, seed: int) -> None:
    result = random_game(mod_rules, 7, 7000 + seed, MOD)
    assert result.problems == []
    assert result.state.winner in result.state.houses
    assert "arryn" in result.state.houses
    assert result.state.rules.areas["the-eyrie"].home_of == "arryn"


def test_11_3_arryn_takes_part_in_random_games(mod_rules: Ruleset) -> None:
    """Over a few games Arryn's units leave their starting areas and its cards are played."""
    moved = played = False
    for seed in range(3):
        result = random_game(mod_rules, 7, 7100 + seed, MOD)
        start = {"the-eyrie", "port-of-the-eyrie", "the-vale-of-arryn"}
        moved |= any(
            u.house == "arryn" and area not in start
            for area, units in result.state.units.items()
            for u in units
        )
        played |= len(result.state.hands["arryn"]) < 7  # a played card is never back in hand
    assert moved and played


def test_11_2_1_the_baseline_ai_plays_a_7_player_game_without_fault(mod_rules: Ruleset) -> None:
    record = play_game(mod_rules, [BaselineBot() for _ in range(7)], 3, MOD)
    assert record.faults == []
    assert record.winner in record.seats
