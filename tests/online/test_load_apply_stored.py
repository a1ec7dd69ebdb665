"""Two workers' replicas of one game (docs/online.md "A dedicated server"): an action one
worker accepted and stored reaches the other's seats through ``GameSession.apply_stored``,
checked against the state hash its log recorded; an action that does not lead there (or is
not the next one) is refused as corruption and changes nothing on that worker."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from westeros.engine import pending, player_view, random_action
from westeros.plugins import build_ruleset
from westeros.saves import open_store
from westeros.session import GameSession, Human
from westeros.store import CorruptGame, GameStore


def _replicas(tmp_path: Path) -> tuple[GameStore, GameSession, GameSession]:
    store = open_store(f"sqlite:///{tmp_path / 'replicas.db'}")
    rules = build_ruleset({})
    houses = rules.setups[3].houses
    writer = GameSession.create(store, rules, 3, {h: Human(h) for h in houses}, seed=11)
    follower = GameSession.resume(store, writer.game_id, lambda house, seat: Human(house))
    return store, writer, follower


def test_an_action_stored_by_another_worker_reaches_this_worker_s_seats(tmp_path: Path) -> None:
    store, writer, follower = _replicas(tmp_path)
    house = sorted(pending(writer.state))[0]
    seen: list[dict[str, Any]] = []
    follower.attach(house, seen.append)
    action = random_action(writer.state, house, random.Random(1))
    accepted = writer.submit(house, action, writer.serial)

    follower.apply_stored(accepted.serial, house, action, accepted.state.hash())

    assert follower.serial == writer.serial == store.game(writer.game_id).action_count
    assert follower.state.hash() == writer.state.hash()
    assert seen[-1]["state_id"] == accepted.serial
    assert seen[-1]["view"] == player_view(writer.state, house)


def test_a_stored_action_that_does_not_fit_changes_nothing(tmp_path: Path) -> None:
    _, writer, follower = _replicas(tmp_path)
    house = sorted(pending(writer.state))[0]
    seen: list[dict[str, Any]] = []
    follower.attach(house, seen.append)
    before = follower.state.hash()
    action = random_action(writer.state, house, random.Random(1))
    accepted = writer.submit(house, action, writer.serial)

    with pytest.raises(CorruptGame, match="does not lead to its state"):
        follower.apply_stored(accepted.serial, house, action, "not-the-recorded-hash")
    with pytest.raises(CorruptGame, match="after state 0"):
        follower.apply_stored(accepted.serial + 1, house, action, accepted.state.hash())

    assert follower.serial == 0 and follower.state.hash() == before
    assert len(seen) == 1  # only the opening view: nothing was broadcast
