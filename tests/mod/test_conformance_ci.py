"""Random-play conformance of Mother of Dragons in CI (issue 12, acceptance 2; RULES.md 11.2,
11.8, 11.9): over a hundred full games across the scenarios of ``benchmarks/conformance.py``
(7 and 8 players, and 3-6 players with vassals, each with and without sea orders + the Iron
Bank), uniformly random legal decisions, every invariant of
``westeros.conformance`` checked after every action: no crash, no violation, a winner."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from westeros.conformance import random_game
from westeros.engine.content import Ruleset
from westeros.plugins import build_ruleset
from westeros_mother_of_dragons.vassals import OPTION as VASSAL_OPTION
from westeros_mother_of_dragons.vassals import vassals

from .conftest import MOD

BANK = {**MOD, "mod_sea_orders": True, "mod_iron_bank": True}
VASSALS = {**MOD, "mod_vassals": True}
GAMES = 26  # per scenario: 156 games, 52 of them with vassals

# name -> (player counts played in turn, game options)
SCENARIOS: dict[str, tuple[tuple[int, ...], Mapping[str, Any]]] = {
    "7p": ((7,), MOD),
    "7p-iron-bank": ((7,), BANK),
    "8p": ((8,), MOD),
    "8p-iron-bank": ((8,), BANK),
    "vassals-3-6p": ((3, 4, 5, 6), VASSALS),
    "vassals-3-6p-iron-bank": ((3, 4, 5, 6), {**BANK, **VASSALS}),
}
_RULES: dict[str, Ruleset] = {}


def scenario_rules(name: str) -> Ruleset:
    if name not in _RULES:
        _RULES[name] = build_ruleset(SCENARIOS[name][1])
    return _RULES[name]


@pytest.mark.parametrize("seed", range(GAMES))
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_11_random_mother_of_dragons_game_keeps_every_invariant(name: str, seed: int) -> None:
    counts, options = SCENARIOS[name]
    rules = scenario_rules(name)
    players = counts[seed % len(counts)]
    result = random_game(rules, players, 12_000 + seed, options)
    state = result.state
    assert result.problems == []
    assert state.winner in state.houses
    if options.get(VASSAL_OPTION):  # every house not taken by a player is a vassal (11.10.1)
        assert len(state.houses) == 7 and len(vassals(state)) == 7 - players
        assert state.winner not in vassals(state)
    else:
        assert len(state.houses) == players
