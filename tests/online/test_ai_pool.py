"""AI seats of the online server decide in a separate process (issue 10: never on the event
loop): the pool rebuilds the game's Ruleset from its recorded plugins and answers from the
seat's own view with an action the engine accepts. A pool process that dies, or a pool shut
down, leaves the seat's decision to be asked again, never to a random move."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.server.test_session_memory import ROUNDS, played
from westeros.ai import BALANCED, BaselineBot
from westeros.ai.opponents import OpponentModels
from westeros.engine import Ruleset, player_view
from westeros.engine.flow import apply, pending
from westeros.engine.setup import new_game
from westeros.online.ai_pool import AiPool, PooledAi
from westeros.plugins import build_ruleset
from westeros.saves import open_store
from westeros.session import GameSession


def test_a_pooled_ai_seat_answers_its_prompt_legally_from_another_process() -> None:
    rules = build_ruleset({})
    state = new_game(rules, 3, 7)
    pool = AiPool(1)
    try:
        for _ in range(3):
            house = sorted(pending(state))[0]
            ai = PooledAi(pool, "easy", BALANCED, rules.plugins, {})
            action = ai.decide(player_view(state, house), rules, 0.2)
            state, _ = apply(state, house, action)
    finally:
        pool.shutdown()
    assert state.serial >= 3


def test_4_1_a_pooled_hard_seat_reads_the_other_houses_and_keeps_its_reading(
    tmp_path: Path, rules: Ruleset
) -> None:
    """Online, Hard is made anew in the pool for each decision; its reading of the other
    houses still goes from one decision to the next, and a seat it takes mid-game starts with
    the earlier rounds read."""
    store = open_store(f"sqlite:///{tmp_path / 'westeros.db'}")
    session = played(store, rules, BaselineBot(3))
    pool = AiPool(1)
    try:
        hard = PooledAi(pool, "hard", BALANCED, rules.plugins, {})
        session.players["stark"] = hard
        session.play_ai("stark")
        assert hard.reading is not None
        read = OpponentModels.from_json("standard", hard.reading).models()
        assert set(read.values()) == {"baseline"}, read
        assert len(read) >= 4, read
        before = matched(hard.reading)
        while session.state.round == ROUNDS + 1 and matched(hard.reading) == before:
            session.play_ai(session.ai_pending()[0])
        assert matched(hard.reading) > before, "round 5's reveal was read on top of the rest"
    finally:
        pool.shutdown()


def matched(reading: Mapping[str, Any] | None) -> int:
    """How many revealed orders some model predicted, over every house, in ``reading``."""
    assert reading is not None
    return sum(sum(counts.values()) for counts in reading["matches"].values())


def hard_seat_of_a_played_game(tmp_path: Path, rules: Ruleset, pool: AiPool) -> GameSession:
    """A game of baseline AIs at a Planning phase, Stark's seat a pooled Hard AI."""
    store = open_store(f"sqlite:///{tmp_path / 'westeros.db'}")
    session = played(store, rules, BaselineBot(3))
    session.players["stark"] = PooledAi(pool, "hard", BALANCED, rules.plugins, {})
    return session


def test_pool_processes_killed_mid_decision_play_nothing_and_a_new_pool_decides_next(
    tmp_path: Path, rules: Ruleset, caplog: pytest.LogCaptureFixture
) -> None:
    """The pool's processes die (each killed here with SIGKILL as soon as it starts, long
    before Hard has read the game's past or decided): the decision is not replaced by a
    random move, the game is as it was, and once the processes live again a new pool
    decides (a pool with a dead process refuses everything after; before, every later AI
    move of the worker was random)."""
    pool = AiPool(1)
    session = hard_seat_of_a_played_game(tmp_path, rules, pool)
    serial, seen = session.serial, set(multiprocessing.active_children())
    outcome: list[Any] = []
    thread = threading.Thread(target=lambda: outcome.append(session.play_ai("stark")))
    try:
        thread.start()
        deadline = time.monotonic() + 60
        while thread.is_alive():
            assert time.monotonic() < deadline, "the seat's decision never ended"
            for process in set(multiprocessing.active_children()) - seen:
                seen.add(process)
                if process.pid is not None:
                    os.kill(process.pid, signal.SIGKILL)
                    print(f"injected: SIGKILL to the AI pool process {process.pid}")
            time.sleep(0.01)
        assert outcome == [None], "nothing is played for the seat"
        assert (session.serial, "stark" in pending(session.state)) == (serial, True)
        assert not [r for r in caplog.records if "random legal action" in r.getMessage()]
        assert session.play_ai("stark") is not None  # asked again: a new pool decides
        assert session.serial == serial + 1
    finally:
        pool.shutdown()


def test_after_the_pool_is_shut_down_an_ai_seat_plays_nothing(
    tmp_path: Path, rules: Ruleset, caplog: pytest.LogCaptureFixture
) -> None:
    """A worker stopping shuts its pool down while its seat thread may still drive a game:
    the seat's decision is not replaced by a random move (the suite saw one played); the
    next worker to hold the game asks the AI again."""
    pool = AiPool(1)
    session = hard_seat_of_a_played_game(tmp_path, rules, pool)
    pool.shutdown()
    serial = session.serial
    assert session.play_ai("stark") is None
    assert (session.serial, "stark" in pending(session.state)) == (serial, True)
    assert not [r for r in caplog.records if "random legal action" in r.getMessage()]
