"""``player_views``: every seat gets exactly its ``player_view`` when the part all houses
see is computed once (DESIGN §2, RULES.md 0.4.4: the one hidden-information filter)."""

from __future__ import annotations

import json
import random

from westeros.engine.content import Ruleset
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.setup import new_game
from westeros.engine.view import player_view, player_views


def test_0_4_4_every_seat_and_spectator_view_equals_player_view_over_a_random_game(
    rules: Ruleset,
) -> None:
    rnd = random.Random(7)
    state = new_game(rules, 6, 7, {})
    viewers = (*state.houses, None)
    for _ in range(3000):
        views = player_views(state, viewers)
        assert list(views) == list(viewers)
        for house in viewers:  # same entries, same order, as JSON a client receives
            assert json.dumps(views[house]) == json.dumps(player_view(state, house))
        waiting = pending(state)
        if not waiting:
            break
        house = rnd.choice(sorted(waiting))
        state, _ = apply(state, house, random_action(state, house, rnd))
    assert state.winner is not None
