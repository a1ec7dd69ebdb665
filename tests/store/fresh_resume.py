"""Resuming a stored game in a fresh process (issue 11, acceptance 4): the test that the
snapshot is really used there and ``benchmarks/resume.py`` share this.

``record_game`` stores a game of random legal play until a round starts; ``probe`` starts a new
Python process that opens the store, builds the game's Ruleset and loads the game, and returns
what it measured and logged (``python -m tests.store.fresh_resume URL GAME_ID``)."""

from __future__ import annotations

import json
import logging
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def record_game(
    url: str, rounds: int = 10, seed: int = 3, players: int = 6, into_round: int = 20
) -> dict[str, Any]:
    """Store a ``players``-player game played at random until ``into_round`` actions into
    round ``rounds`` (or its end): its id, action count, round and the live state's hash."""
    from westeros.engine import apply, pending, random_action
    from westeros.plugins import build_ruleset
    from westeros.saves import open_store
    from westeros.store import GameSetup, SeatSpec

    rules = build_ruleset()
    houses = rules.setups[players].houses
    seats = tuple(SeatSpec(h, "ai", "baseline") for h in houses)
    store = open_store(url)
    game = store.create_game(GameSetup(players, seats, seed, rules.plugins))
    state, rnd = game.state, random.Random(seed)
    round_start = None
    while pending(state):
        if state.round >= rounds:
            round_start = state.serial if round_start is None else round_start
            if state.serial >= round_start + into_round:
                break
        house = sorted(pending(state))[0]
        action = random_action(state, house, rnd)
        state, _ = apply(state, house, action)
        store.append_action(game.info.id, state.serial, house, action, state)
    store.close()
    return {"id": game.info.id, "actions": state.serial, "hash": state.hash(), "round": state.round}


def probe(url: str, game_id: str) -> dict[str, Any]:
    """Load ``game_id`` in a new process; its report (see ``_main``)."""
    env = {**os.environ, "WESTEROS_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "tests.store.fresh_resume", url, game_id],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def _main(url: str, game_id: str) -> None:
    """Report, as JSON: seconds to import, open the store, build the Ruleset and load (and,
    for comparison, to replay the whole log from the first state, as every fresh process did
    before snapshots could be read); the snapshot resumed from, the actions replayed after
    it, the state hash, warnings logged."""
    started = time.perf_counter()
    warnings: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            warnings.append(record.getMessage())

    logging.getLogger("westeros").addHandler(Collect(logging.WARNING))
    from westeros.saves import open_store
    from westeros.store import CorruptGame
    from westeros.store.replay import replay

    imported = time.perf_counter()
    store = open_store(url)
    info = store.game(game_id)
    opened = time.perf_counter()
    store.ruleset(info.setup)
    built = time.perf_counter()
    loaded = store.load_game(game_id)
    resumed = time.perf_counter()
    _, log = store.game_log(game_id)
    replay(store.first_state(info), log, CorruptGame)
    replayed = time.perf_counter()
    print(
        json.dumps(
            {
                "import_s": imported - started,
                "open_s": opened - imported,
                "ruleset_s": built - opened,
                "load_s": resumed - built,
                "full_replay_s": replayed - resumed,
                "resumed_from": loaded.resumed_from,
                "replayed": loaded.state.serial - loaded.resumed_from,
                "hash": loaded.state.hash(),
                "warnings": warnings,
            }
        )
    )


if __name__ == "__main__":
    _main(sys.argv[1], sys.argv[2])
