"""Determinism (issue 2, acceptance 3): a game is its seed plus its action log; replaying the
log gives the same state hash after every action."""

from __future__ import annotations

import random

import pytest

from westeros.engine.actions import Action
from westeros.engine.content import Ruleset
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.setup import new_game


def play_recording(rules: Ruleset, players: int, seed: int) -> tuple[list, list[str]]:
    rnd = random.Random(seed)
    state = new_game(rules, players, seed)
    log, hashes = [], [state.hash()]
    while pending(state):
        house = rnd.choice(sorted(pending(state)))
        action = random_action(state, house, rnd)
        log.append((house, action.to_json()))
        state, _ = apply(state, house, action)
        hashes.append(state.hash())
    return log, hashes


@pytest.mark.parametrize("seed", range(50))
def test_replaying_the_log_gives_the_same_hash_after_every_action(
    rules: Ruleset, seed: int
) -> None:
    players = 3 + seed % 4
    log, hashes = play_recording(rules, players, seed)
    state = new_game(rules, players, seed)
    assert state.hash() == hashes[0]
    for i, (house, data) in enumerate(log, start=1):
        state, _ = apply(state, house, Action.from_json(data, rules.action_kinds))
        assert state.hash() == hashes[i], f"diverged at action {i}"
    assert state.winner is not None


def test_different_seeds_give_different_games(rules: Ruleset) -> None:
    _, a = play_recording(rules, 4, 1)
    _, b = play_recording(rules, 4, 2)
    assert a[0] != b[0] and a[-1] != b[-1]
