"""Crash recovery (issue 6, acceptance 1): a child process plays a game through a real
GameSession with AI seats on a real database and is killed with SIGKILL at a random moment;
the parent then reopens the store, resumes the game and checks that nothing accepted was lost.

The child writes one line ``house seq hash`` to a side file after each accepted action, AFTER
the store committed it (a session observer runs after the commit). So when the kill lands the
database holds either exactly the last recorded action, or one more: the kill fell between the
commit and the side-file write. Both are checked precisely:

- the database's log is gap-free and its last action is ``last recorded`` or ``last recorded
  + 1`` (never fewer: a recorded action was committed before it was recorded);
- a full re-run of the log from the first state (``Timeline``, every stored hash checked)
  passes through every recorded (house, seq, hash) exactly;
- ``GameSession.resume`` (latest snapshot plus the rest of the log) reaches the last committed
  action, with the recorded hash when that action was recorded, else the hash the database
  recorded with it, and the same state as the full re-run;
- the resumed game plays on: a few more AI actions are accepted and committed.

Trials form chains: each trial resumes the game the previous one left (so resumes from
snapshots written by killed processes are exercised), and a finished game starts a new one.

Run a child by hand: ``python -m tests.crash.harness child --url URL --side FILE``."""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from westeros.ai import RandomBot
from westeros.plugins import build_ruleset
from westeros.saves import open_store
from westeros.session import Accepted, AiFactory, AiPlayer, GameSession
from westeros.store import SeatSpec, Timeline

REPO = Path(__file__).resolve().parents[2]
NEW = "new"
PLAYERS = 6
READY_TIMEOUT_S = 60.0
CONTINUE_ACTIONS = 3


def bots(seed: int) -> AiFactory:
    """An AI factory: random legal play, seeded per house and per run."""

    def factory(house: str, seat: SeatSpec) -> AiPlayer:
        return RandomBot(seed=seed * 7919 + sum(map(ord, house)))

    return factory


# ---------------------------------------------------------------------------------- child


def child(url: str, schema: str | None, game_id: str, side: Path, seed: int) -> None:
    """Play (and never stop on its own): create or resume the game, say ``ready <id>``, then
    let the AI seats play; after the game ends, wait to be killed."""
    store = open_store(url, schema=schema)
    factory = bots(seed)
    if game_id == NEW:
        rules = build_ruleset({})
        houses = rules.setups[PLAYERS].houses
        seats = {h: factory(h, SeatSpec(h, "ai")) for h in houses}
        session = GameSession.create(store, rules, PLAYERS, seats, seed)
    else:
        session = GameSession.resume(store, game_id, factory)
    with side.open("a", encoding="utf-8", buffering=1) as out:

        def record(accepted: Accepted) -> None:  # runs after the commit
            out.write(f"{accepted.house} {accepted.serial} {accepted.state.hash()}\n")

        session.observe(record)
        print(f"ready {session.game_id} {session.serial}", flush=True)
        while not session.over:
            houses = session.ai_pending()
            if houses:
                session.play_ai(houses[0])
        print("over", flush=True)
        time.sleep(3600)


# ---------------------------------------------------------------------------------- parent


@dataclasses.dataclass
class Trial:
    """What one trial saw."""

    game_id: str
    started_at: int
    recorded: int
    committed: int
    resumed: bool = False
    resumed_from: int = 0
    lagged: bool = False
    over: bool = False
    problems: list[str] = dataclasses.field(default_factory=list)


def _side_lines(path: Path) -> list[tuple[str, int, str]]:
    """Complete lines of the side file (a line cut by the kill has no newline: ignored)."""
    if not path.exists():
        return []
    text = path.read_text("utf-8")
    lines = text.split("\n")[:-1]  # the part after the last newline is incomplete
    out = []
    for line in lines:
        house, seq, digest = line.split(" ")
        out.append((house, int(seq), digest))
    return out


def _wait_ready(process: subprocess.Popen[str]) -> tuple[str, int]:
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], READY_TIMEOUT_S)
    line = process.stdout.readline() if ready else ""
    if not line.startswith("ready "):
        process.kill()
        _, err = process.communicate(timeout=30)
        raise RuntimeError(f"the child did not start: {line!r}\n{err}")
    _, game_id, serial = line.split()
    return game_id, int(serial)


def child_environment() -> dict[str, str]:
    """The child's environment: this checkout importable, no installed plugins."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env["WESTEROS_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    env.pop("WESTEROS_DATABASE_URL", None)
    return env


def run_child(
    url: str, schema: str | None, game_id: str, side: Path, seed: int, kill_after: float
) -> tuple[str, int, str]:
    """Start a child, let it play ``kill_after`` seconds after it is ready, SIGKILL it.
    Returns (game id, serial it started from, what it printed after ready)."""
    command = [sys.executable, "-m", "tests.crash.harness", "child", "--url", url]
    command += ["--game", game_id, "--side", str(side), "--seed", str(seed)]
    if schema:
        command += ["--schema", schema]
    process = subprocess.Popen(
        command,
        cwd=REPO,
        env=child_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        game, started = _wait_ready(process)
        time.sleep(kill_after)
        process.send_signal(signal.SIGKILL)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    if process.returncode != -signal.SIGKILL:
        raise RuntimeError(f"the child ended by itself ({process.returncode}):\n{err}")
    return game, started, out


def verify(
    url: str,
    schema: str | None,
    game_id: str,
    started: int,
    side: Path,
    *,
    play_on: int = CONTINUE_ACTIONS,
) -> Trial:
    """Reopen the store after the kill and check everything the module docstring lists
    (``play_on`` more AI actions after the resume)."""
    lines = _side_lines(side)
    recorded = lines[-1][1] if lines else started
    store = open_store(url, schema=schema)
    try:
        info, entries = store.game_log(game_id)
        trial = Trial(game_id, started, recorded, info.action_count)
        problems = trial.problems
        if [seq for _, seq, _ in lines] != list(range(started + 1, recorded + 1)):
            problems.append(f"the side file is not numbered {started + 1}..{recorded}")
        if trial.committed not in (recorded, recorded + 1):
            problems.append(f"{trial.committed} actions committed, {recorded} recorded")
            return trial
        trial.lagged = trial.committed == recorded + 1
        timeline = Timeline(store.first_state(info), entries)  # every stored hash checked
        for house, seq, digest in lines:
            if entries[seq - 1].house != house or timeline.state(seq).hash() != digest:
                problems.append(f"action {seq}: the re-run differs from what was accepted")
        session = GameSession.resume(store, game_id, bots(trial.committed))
        trial.resumed, trial.resumed_from = True, session.resumed_from
        if lines and not trial.lagged:
            expected = lines[-1][2]  # the hash the child recorded for the last committed action
        else:  # the kill fell between the commit and the side file: the database's own record
            expected = entries[-1].state_hash if entries else timeline.final.hash()
        if session.serial != trial.committed:
            problems.append(f"resumed at {session.serial}, not {trial.committed}")
        if session.state.hash() != expected or expected != timeline.final.hash():
            problems.append(f"the resumed state after {trial.committed} actions differs")
        played = 0
        while played < play_on and not session.over:
            session.play_ai(session.ai_pending()[0])
            played += 1
        if store.game(game_id).action_count != trial.committed + played:
            problems.append("the resumed game did not play on")
        trial.over = session.over
    finally:
        store.close()
    return trial


def trials(
    url: str,
    schema: str | None,
    workdir: Path,
    count: int,
    seed: int,
    play_seconds: float = 1.0,
) -> Iterator[Trial]:
    """``count`` crash trials chained on one game (a new one once a game is over)."""
    rnd = random.Random(seed)
    game_id = NEW
    for number in range(count):
        side = workdir / f"side-{seed}-{number}.txt"
        kill_after = rnd.uniform(0.0, play_seconds)
        game, started, _ = run_child(url, schema, game_id, side, seed * 1000 + number, kill_after)
        trial = verify(url, schema, game, started, side)
        yield trial
        game_id = NEW if trial.over else game


def main() -> None:
    parser = argparse.ArgumentParser(description="crash-recovery child process")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("child", help="play until killed")
    run.add_argument("--url", required=True)
    run.add_argument("--schema", default=None)
    run.add_argument("--game", default=NEW)
    run.add_argument("--side", type=Path, required=True)
    run.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    child(args.url, args.schema, args.game, args.side, args.seed)


if __name__ == "__main__":
    main()
