"""What the engine's speed work relies on (issue 36 point 6; DESIGN §2): a copy holds the whole
state with containers of its own, and a waiting state's remembered answers (``flow.memo``: its
prompts, legal musters, march options, the questions of a simultaneous decision kept across
commitments) are exactly what the engine works out afresh."""

from __future__ import annotations

import random
from typing import Any

import pytest

from westeros.engine.flow import Prompt, apply, memo, pending, random_action
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.plugins import build_ruleset

TRANSIENT = ("events", "cache")
FIXED = ("options",)
"""A game's options never change: every state of a game shares them."""


def _played(players: int, seed: int, decisions: int, options: dict[str, Any]) -> State:
    rules = build_ruleset(options)
    rnd = random.Random(seed)
    state = new_game(rules, players, seed, options)
    for _ in range(decisions):
        house = rnd.choice(sorted(pending(state)))
        state, _ = apply(state, house, random_action(state, house, rnd))
    return state


def _asked(prompts: dict[str, Prompt]) -> dict[str, tuple[Any, ...]]:
    return {h: (p.house, p.kind, p.actions, p.data) for h, p in prompts.items()}


def test_a_copy_holds_every_field_with_containers_of_its_own() -> None:
    state = _played(6, 3, 150, {})
    copied = state.copy()
    for name in State.__slots__:
        if name in TRANSIENT:
            continue
        value = getattr(state, name)
        assert getattr(copied, name) == value, name
        if isinstance(value, dict) and name not in FIXED:
            assert getattr(copied, name) is not value, f"{name} is shared with the original"
    assert copied.events == []
    assert copied.cache is None
    assert memo(copied) is None


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        (6, 0, {}),
        (6, 1, {}),
        (4, 2, {}),
        (6, 3, {"tides_of_battle": True}),
        (7, 4, {"mother_of_dragons": True}),
    ],
)
def test_a_waiting_state_asks_and_answers_as_a_fresh_look_at_it_does(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    rules = build_ruleset(options)
    rnd = random.Random(seed)
    state = new_game(rules, players, seed, options)
    kinds = set()
    while waiting := pending(state):
        fresh = state.copy()  # no cache, no memo: everything worked out again
        assert memo(state) is not None
        assert _asked(waiting) == _asked(pending(fresh))
        house = rnd.choice(sorted(waiting))
        draw = rnd.getrandbits(32)
        action = random_action(state, house, random.Random(draw))
        assert action == random_action(fresh, house, random.Random(draw))
        kinds.add(waiting[house].kind)
        state, _ = apply(state, house, action)
    assert {"place_orders", "march", "muster", "raid", "consolidate_power"} <= kinds
