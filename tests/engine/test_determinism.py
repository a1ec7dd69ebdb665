"""Determinism (issue 2, acceptance 3; issue 12, acceptance 2): a game is its seed plus its
action log; replaying the log gives the same state hash after every action, in the base game
and in 7- and 8-player Mother of Dragons games with sea orders and the Iron Bank, and in 3-6
player games with vassals (11.10), with and without sea orders and the Iron Bank."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from westeros.engine.actions import Action
from westeros.engine.content import Ruleset
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.setup import new_game
from westeros.plugins import build_ruleset

MOD_BANK = {"mother_of_dragons": True, "mod_sea_orders": True, "mod_iron_bank": True}


def play_recording(
    rules: Ruleset, players: int, seed: int, options: Mapping[str, Any] | None = None
) -> tuple[list, list[str]]:
    rnd = random.Random(seed)
    state = new_game(rules, players, seed, options)
    log, hashes = [], [state.hash()]
    while pending(state):
        house = rnd.choice(sorted(pending(state)))
        action = random_action(state, house, rnd)
        log.append((house, action.to_json()))
        state, _ = apply(state, house, action)
        hashes.append(state.hash())
    return log, hashes


def replays_identically(
    rules: Ruleset, players: int, seed: int, options: Mapping[str, Any] | None = None
) -> None:
    log, hashes = play_recording(rules, players, seed, options)
    state = new_game(rules, players, seed, options)
    assert state.hash() == hashes[0]
    for i, (house, data) in enumerate(log, start=1):
        state, _ = apply(state, house, Action.from_json(data, rules.action_kinds))
        assert state.hash() == hashes[i], f"diverged at action {i}"
    assert state.winner is not None


@pytest.mark.parametrize("seed", range(50))
def test_replaying_the_log_gives_the_same_hash_after_every_action(
    rules: Ruleset, seed: int
) -> None:
    replays_identically(rules, 3 + seed % 4, seed)


@pytest.fixture(scope="module")
def mod_bank_rules() -> Ruleset:
    return build_ruleset(MOD_BANK)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("players", [7, 8])
def test_11_replaying_a_mother_of_dragons_game_with_the_iron_bank_gives_the_same_hashes(
    mod_bank_rules: Ruleset, players: int, seed: int
) -> None:
    replays_identically(mod_bank_rules, players, 1200 + seed, MOD_BANK)


VASSALS = {"mother_of_dragons": True, "mod_vassals": True}


@pytest.mark.parametrize("options", [VASSALS, {**MOD_BANK, **VASSALS}], ids=["plain", "bank"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_11_10_replaying_a_game_with_vassals_gives_the_same_hashes(
    players: int, options: Mapping[str, Any]
) -> None:
    replays_identically(build_ruleset(options), players, 1250 + players, options)


def test_different_seeds_give_different_games(rules: Ruleset) -> None:
    _, a = play_recording(rules, 4, 1)
    _, b = play_recording(rules, 4, 2)
    assert a[0] != b[0] and a[-1] != b[-1]
