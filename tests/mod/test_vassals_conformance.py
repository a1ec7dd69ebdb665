"""Random-play conformance of Mother of Dragons games with vassals (RULES.md 11.2.5, 11.10):
full 4- and 6-player games with uniformly random legal decisions, the invariants of
``westeros.conformance`` checked after every action, and AI games where the commanders answer
for their vassals."""

from __future__ import annotations

import pytest

from westeros.ai import BaselineBot
from westeros.ai.runner import play_game
from westeros.conformance import random_game
from westeros.engine.content import Ruleset
from westeros.plugins import build_ruleset

VASSALS = {"mother_of_dragons": True, "mod_vassals": True}
GAMES = 3


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(VASSALS)


@pytest.mark.parametrize("players", [4, 6])
@pytest.mark.parametrize("seed", range(GAMES))
def test_11_10_random_vassal_game_keeps_every_invariant(
    rules: Ruleset, players: int, seed: int
) -> None:
    result = random_game(rules, players, 11_000 + 100 * players + seed, VASSALS)
    assert result.problems == []
    assert result.state.winner in result.state.setup.players  # 11.10.1: a vassal cannot win
    assert len(result.state.houses) == 7
    claims = [a for _, a in result.log if a["kind"] == "claim_vassals"]
    assert claims  # 11.10.3: claiming happened


def test_11_10_8_baseline_ais_play_a_4_player_vassal_game_without_fault(rules: Ruleset) -> None:
    record = play_game(rules, [BaselineBot() for _ in range(4)], 5, VASSALS)
    assert record.faults == []
    assert set(record.seats) == {"baratheon", "lannister", "stark", "greyjoy"}
    assert record.winner in record.seats
