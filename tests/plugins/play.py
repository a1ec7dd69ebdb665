"""Random play for plugin tests: a game "plays" when random legal decisions keep it going
with every rule invariant intact (westeros.conformance)."""

from __future__ import annotations

import random

from westeros.conformance import violations
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.state import State


def play_for(state: State, decisions: int, seed: int = 0) -> State:
    """Apply up to ``decisions`` random legal decisions; fail on a broken invariant."""
    rnd = random.Random(seed)
    for _ in range(decisions):
        waiting = pending(state)
        if not waiting:
            break
        house = rnd.choice(sorted(waiting))
        state, _ = apply(state, house, random_action(state, house, rnd))
        problems = violations(state)
        assert not problems, problems
    return state
