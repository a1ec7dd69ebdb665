"""A plugin's action kind crosses workers (docs/online.md "A dedicated server"): an action of
the ports plugin (6.3.1 take over ships) that one worker accepted is read by another worker's
replica with the game's own action kinds, both when it catches up from the store and when
it follows the bus message."""

from __future__ import annotations

import random
from pathlib import Path

from westeros.engine import pending, random_action
from westeros.engine.actions import Action
from westeros.online.session import OnlineSession
from westeros.plugins import build_ruleset
from westeros.saves import open_store
from westeros.session import GameSession, Human

SEED, PLAYERS, BEFORE = 12, 4, 125  # random play reaches a port take-over at decision 126


def test_6_3_1_a_port_take_over_reaches_the_other_workers_replica(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'workers.db'}")
    rules = build_ruleset({})
    houses = rules.setups[PLAYERS].houses
    writer = GameSession.create(store, rules, PLAYERS, {h: Human(h) for h in houses}, seed=SEED)
    follower = OnlineSession.resume(store, writer.game_id, lambda house, seat: Human(house))
    rnd = random.Random(SEED)

    def play() -> tuple[str, Action]:
        state = writer.state
        house = min(pending(state))
        action = random_action(state, house, rnd)
        writer.submit(house, action, writer.serial)
        return house, action

    for _ in range(BEFORE):
        play()
    assert follower.catch_up() == BEFORE
    house, action = play()
    assert action.kind == "take_over_ships"  # the ports plugin's own kind
    follower.follow(writer.serial, house, action.to_json(), writer.state.hash())
    assert follower.serial == writer.serial
    assert follower.state.hash() == writer.state.hash()
