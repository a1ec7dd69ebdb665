"""AI seats of the online server decide in a separate process (issue 10: never on the event
loop): the pool rebuilds the game's Ruleset from its recorded plugins and answers from the
seat's own view with an action the engine accepts."""

from __future__ import annotations

from westeros.ai import BALANCED
from westeros.engine import player_view
from westeros.engine.flow import apply, pending
from westeros.engine.setup import new_game
from westeros.online.ai_pool import PooledAi, make_pool
from westeros.plugins import build_ruleset


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
