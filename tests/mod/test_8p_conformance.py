"""Random-play conformance of 8-player Mother of Dragons games (RULES.md 11.2.2): full games
with uniformly random legal decisions, the invariants of ``westeros.conformance`` checked after
every action; Targaryen stays last on every track (11.2.3) and its dragons take part."""

from __future__ import annotations

import pytest

from westeros.ai import BaselineBot
from westeros.ai.runner import play_game
from westeros.conformance import random_game
from westeros.engine.content import Ruleset
from westeros.plugins import build_ruleset

from .conftest import MOD

GAMES = 5


@pytest.mark.parametrize("seed", range(GAMES))
def test_11_2_2_random_8_player_game_keeps_every_invariant(mod_rules: Ruleset, seed: int) -> None:
    result = random_game(mod_rules, 8, 8000 + seed, MOD)
    assert result.problems == []
    assert result.state.winner in result.state.houses
    assert "targaryen" in result.state.houses
    for order in result.state.tracks.values():
        assert order[-1] == "targaryen"  # 11.2.3, after every bid and card of the game


def test_11_5_3_dragons_fly_in_random_games(mod_rules: Ruleset) -> None:
    """Over a few games a dragon ends up in Westeros, which no Essos land area touches: only
    flight (or ship transport) takes it there; Targaryen's cards are played too."""
    essos = mod_rules.setups[7].blocked_areas  # what the 7-player game leaves out
    westeros_reached = played = False
    for seed in range(3, 6):  # seeds re-picked when deck IV joined the random games
        result = random_game(mod_rules, 8, 8100 + seed, MOD)
        westeros_reached |= any(
            u.type == "dragon" and area not in essos
            for area, units in result.state.units.items()
            for u in units
        )
        played |= len(result.state.hands["targaryen"]) < 7
    assert westeros_reached and played


def test_11_2_2_the_baseline_ai_plays_an_8_player_game_without_fault(mod_rules: Ruleset) -> None:
    record = play_game(mod_rules, [BaselineBot() for _ in range(8)], 5, MOD)
    assert record.faults == []
    assert record.winner in record.seats


@pytest.mark.parametrize("seed", range(2))
def test_11_6_11_11_random_games_use_loyalty_and_deck_iv(mod_rules: Ruleset, seed: int) -> None:
    """Random 8-player games reveal deck IV cards, which place loyalty tokens, and never have
    more than the 20 loyalty tokens on the board (collected ones have left it, 11.6.1); the
    alternate dragon rounds option plays as well (11.4.4, 11.6, 11.11)."""
    options = {**MOD, "mod_alternate_dragon_tokens": bool(seed)}
    result = random_game(build_ruleset(options), 8, 8200 + seed, options)
    assert result.problems == []
    ext = result.state.ext
    on_board = sum(n for _, n in ext["loyalty_tokens"])
    assert on_board <= 20
    out = on_board + ext["loyalty_collected"]
    assert result.state.round < 3 or out > 1  # deck IV placed tokens beyond King's Landing's
