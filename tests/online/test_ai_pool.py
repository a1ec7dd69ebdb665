"""AI seats of the online server decide in a separate process (issue 10: never on the event
loop): the pool rebuilds the game's Ruleset from its recorded plugins and answers from the
seat's own view with an action the engine accepts."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.server.test_session_memory import ROUNDS, played
from westeros.ai import BALANCED, BaselineBot
from westeros.ai.opponents import OpponentModels
from westeros.engine import Ruleset, player_view
from westeros.engine.flow import apply, pending
from westeros.engine.setup import new_game
from westeros.online.ai_pool import PooledAi, make_pool
from westeros.plugins import build_ruleset
from westeros.saves import open_store


def test_a_pooled_ai_seat_answers_its_prompt_legally_from_another_process() -> None:
    rules = build_ruleset({})
    state = new_game(rules, 3, 7)
    pool = make_pool(1)
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
    pool = make_pool(1)
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
