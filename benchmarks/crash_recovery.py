"""Crash recovery at scale (issue 6, acceptance 1): N trials (default 100) in which a child
process plays a game through a real GameSession with AI seats and is killed with SIGKILL at a
random moment; after each kill the store is reopened, the game resumed and checked (last
accepted action, identical state hash, plays on; see tests/crash/harness.py). Prints the
number of trials, resumes and mismatches (mismatches must be 0).

    python benchmarks/crash_recovery.py [--trials N] [--url DATABASE_URL] [--play-seconds S]

Default database: a SQLite file (WAL) in a temporary folder. With ``--url`` (e.g. the
PostgreSQL test server) the trials run in a fresh schema of that database, dropped afterwards.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")

import sqlalchemy as sa  # noqa: E402
from tests.crash.harness import trials  # noqa: E402

from westeros.store import create_db_engine  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--url", default=None, help="database URL (default: a SQLite file)")
    parser.add_argument("--play-seconds", type=float, default=1.0, help="longest play per kill")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="westeros-crash-") as folder:
        workdir = Path(folder)
        url, schema = args.url or f"sqlite:///{workdir / 'crash.db'}", None
        admin = None
        if args.url and sa.make_url(args.url).get_backend_name() == "postgresql":
            schema = f"westeros_crash_{uuid.uuid4().hex}"
            admin = create_db_engine(args.url)
            with admin.begin() as connection:
                connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
        started = time.perf_counter()
        count = resumes = mismatches = lagged = from_snapshot = games = actions = 0
        try:
            for trial in trials(url, schema, workdir, args.trials, args.seed, args.play_seconds):
                count += 1
                resumes += trial.resumed
                mismatches += bool(trial.problems)
                lagged += trial.lagged
                from_snapshot += trial.resumed_from > 0
                games += trial.started_at == 0
                actions += trial.committed - trial.started_at
                for problem in trial.problems:
                    print(f"trial {count}: {problem}", flush=True)
        finally:
            if admin is not None:
                with admin.begin() as connection:
                    connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
                admin.dispose()
        elapsed = time.perf_counter() - started
    backend = sa.make_url(url).get_backend_name()
    print(f"database: {backend}; {games} games, {actions} actions played by killed children")
    print(f"kills between commit and side-file write: {lagged}")
    print(f"resumed from a snapshot: {from_snapshot}")
    print(f"trials: {count}  resumes: {resumes}  mismatches: {mismatches}  ({elapsed:.0f} s)")
    sys.exit(1 if mismatches or resumes != count else 0)


if __name__ == "__main__":
    main()
