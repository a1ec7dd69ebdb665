"""Random-play conformance (issue 2, acceptance 2; issue 3, acceptance 2): full games with
uniformly random legal decisions for every player count, invariants checked after every action."""

from __future__ import annotations

import pytest

from westeros.conformance import random_game
from westeros.engine.content import Ruleset
from westeros.plugins import build_ruleset

GAMES_PER_COUNT = 50


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", range(GAMES_PER_COUNT))
def test_random_full_game_keeps_every_invariant(rules: Ruleset, players: int, seed: int) -> None:
    result = random_game(rules, players, seed)
    assert result.problems == []
    assert result.state.winner in result.state.houses


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", range(5))
def test_random_games_without_the_ports_plugin(
    rules_no_ports: Ruleset, players: int, seed: int
) -> None:
    result = random_game(rules_no_ports, players, 1000 + seed)
    assert result.problems == []
    assert not any(a.startswith("port-of") for a in result.state.units)


@pytest.mark.parametrize("seed", range(8))
def test_random_games_with_tides_of_battle(seed: int) -> None:
    rules = build_ruleset({"tides_of_battle": True})
    result = random_game(rules, 6, 2000 + seed, {"tides_of_battle": True})
    assert result.problems == []
