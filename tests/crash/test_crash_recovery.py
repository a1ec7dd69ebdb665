"""Crash test (issue 6, acceptance 1; DESIGN §5 "each accepted action is committed before it is
broadcast"): a subprocess plays a game through a real GameSession with AI seats and is killed
with SIGKILL at random moments; every time, the reopened store resumes the game at the last
accepted action with an identical state hash, and the game plays on. 20 trials on SQLite (WAL)
in four chains of five (each chain one game, resumed again and again), a few on PostgreSQL.
The 100-trial run is ``benchmarks/crash_recovery.py``. See ``harness.py`` for every check."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from westeros.saves import open_store
from westeros.store import create_db_engine

from .harness import NEW, Trial, run_child, trials, verify

CHAINS = 4
TRIALS_PER_CHAIN = 5  # 20 trials in all
POSTGRES_TRIALS = 4


def _assert_all_recovered(done: list[Trial], count: int) -> None:
    problems = [f"trial {i}: {p}" for i, t in enumerate(done) for p in t.problems]
    assert not problems, "\n".join(problems)
    assert len(done) == count
    assert all(t.resumed for t in done)


@pytest.mark.parametrize("chain", range(CHAINS))
def test_killed_at_random_moments_a_game_resumes_at_its_last_accepted_action(
    sqlite_url: str, tmp_path: Path, chain: int
) -> None:
    done = list(trials(sqlite_url, None, tmp_path, TRIALS_PER_CHAIN, seed=100 + chain))
    _assert_all_recovered(done, TRIALS_PER_CHAIN)
    assert sum(t.committed - t.started_at for t in done) > 0  # the children did play
    engine = create_db_engine(sqlite_url)
    with engine.connect() as connection:
        mode = connection.execute(sa.text("PRAGMA journal_mode")).scalar()
    engine.dispose()
    assert mode == "wal"


def test_killed_on_postgresql_a_game_resumes_at_its_last_accepted_action(
    postgres: tuple[str, str], tmp_path: Path
) -> None:
    url, schema = postgres
    done = list(trials(url, schema, tmp_path, POSTGRES_TRIALS, seed=7))
    _assert_all_recovered(done, POSTGRES_TRIALS)


def test_the_check_allows_exactly_one_missing_side_line_and_no_other_difference(
    sqlite_url: str, tmp_path: Path
) -> None:
    """The checker itself: a side file one line short of the database is the kill landing
    between commit and write (accepted, checked against the database's own hash); two lines
    short, or one wrong hash, are reported."""
    side = tmp_path / "side.txt"
    game, started, _ = run_child(sqlite_url, None, NEW, side, seed=5, kill_after=0.5)
    store = open_store(sqlite_url)
    committed = store.game(game).action_count
    store.close()
    lines = side.read_text().splitlines(keepends=True)
    assert len(lines) >= 3
    missing = committed - int(lines[-1].split()[1])  # 0, or 1 if the kill fell in between
    for dropped in range(3):
        variant = tmp_path / f"dropped-{dropped}.txt"
        variant.write_text("".join(lines[: len(lines) - dropped]))
        trial = verify(sqlite_url, None, game, started, variant, play_on=0)
        if missing + dropped <= 1:
            assert (trial.lagged, trial.problems) == (missing + dropped == 1, [])
        else:
            assert trial.problems, f"{missing + dropped} missing lines were not reported"
    forged = tmp_path / "forged.txt"
    house, seq, _ = lines[-1].split()
    forged.write_text("".join([*lines[:-1], f"{house} {seq} {'0' * 64}\n"]))
    assert verify(sqlite_url, None, game, started, forged, play_on=0).problems
