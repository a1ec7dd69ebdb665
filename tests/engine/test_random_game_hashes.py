"""The engine's speed work (issue 36 point 6) changes no rule and no result: random games end in
exactly the states recorded from the engine before it (``data/random_game_hashes.json``), and
every seat sees exactly the views it saw then (DESIGN §2: a game is its seed plus its log)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from westeros.conformance import random_game
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.setup import new_game
from westeros.engine.view import player_view
from westeros.plugins import build_ruleset

RECORDED = json.loads((Path(__file__).parent / "data" / "random_game_hashes.json").read_text())
CONFIGURATIONS: dict[str, dict[str, Any]] = RECORDED["configurations"]
VIEW_EVERY = 7


@pytest.mark.parametrize("name", list(CONFIGURATIONS))
def test_random_games_end_in_the_states_recorded_before_the_speed_work(name: str) -> None:
    config = CONFIGURATIONS[name]
    options = dict.fromkeys(config["options"], True)
    rules = build_ruleset(options, disable=config["disable"])
    played = []
    for seed in range(len(config["games"])):
        playout = random_game(rules, config["players"], seed, options, check=False)
        played.append([playout.decisions, playout.state.hash()])
    assert played == config["games"]


def test_every_seat_sees_the_views_recorded_before_the_speed_work() -> None:
    rules = build_ruleset({})
    digests = []
    for seed in range(len(RECORDED["views"])):
        rnd = random.Random(seed)
        state = new_game(rules, 6, seed, {})
        digest = hashlib.sha256()
        made = 0
        while waiting := pending(state):
            if made % VIEW_EVERY == 0:
                for house in (None, *state.houses):
                    view = player_view(state, house)
                    digest.update(json.dumps(view, sort_keys=True, default=list).encode())
            house = rnd.choice(sorted(waiting))
            state, _ = apply(state, house, random_action(state, house, rnd))
            made += 1
        digests.append(digest.hexdigest())
    assert digests == RECORDED["views"]
