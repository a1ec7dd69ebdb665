"""Resume time (issue 11, acceptance 4): a 10-round 6-player game of random legal play is
stored in a SQLite file, then loaded by fresh processes; prints the median time to load it
from its latest snapshot (goal ≤ 50 ms), the import, store-opening and Ruleset times around
it, and how many actions were replayed after the snapshot. Asserts nothing.

    python benchmarks/resume.py [--runs N] [--rounds R]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")

from tests.store.fresh_resume import probe, record_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes to time")
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="westeros-resume-") as folder:
        url = f"sqlite:///{Path(folder) / 'westeros.db'}"
        live = record_game(url, rounds=args.rounds)
        reports = [probe(url, live["id"]) for _ in range(args.runs)]
    last = reports[-1]

    def ms(key: str) -> str:
        return f"{statistics.median(r[key] for r in reports) * 1000:.1f} ms"

    print(f"game: 6 players, round {live['round']}, {live['actions']} actions")
    print(f"fresh processes: {args.runs} (median of each figure)")
    print(f"resume from snapshot {last['resumed_from']}, {last['replayed']} actions replayed")
    print(f"resume (load_game): {ms('load_s')}  (goal <= 50 ms)")
    print(f"whole log replayed from the first state instead: {ms('full_replay_s')}")
    print(
        f"  before it: imports {ms('import_s')}, open store {ms('open_s')}, "
        f"build ruleset {ms('ruleset_s')}"
    )
    print(f"same state as the live game: {all(r['hash'] == live['hash'] for r in reports)}")
    print(f"warnings logged: {sum(len(r['warnings']) for r in reports)}")


if __name__ == "__main__":
    main()
