"""Snapshot round-trips at scale (issue 35, acceptance 2): random games of every option set the
bundled plugins offer (``tests/store/snapshot_roundtrip.py``: base 3-6, ports off, Tides of
Battle, Mother of Dragons 7/8 with each of its options, vassals 3-7), the stored snapshot of
every ``--every``-th state checked to play exactly like the live state (hash, pending houses,
prompts, every seat's view, the next action's result, the setup). Prints "N snapshots, M
divergent" per option set and in total (M must be 0), and the first divergences with the
command that replays their game. One process. Asserts nothing.

    python benchmarks/snapshots.py [--games G] [--every K] [--first-seed S] [--set NAME ...]
    python benchmarks/snapshots.py --set vassals --first-seed 12 --games 1
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")

from tests.store.snapshot_roundtrip import OPTION_SETS, play_checking  # noqa: E402

SHOWN = 5


def run(name: str, games: int, every: int, first_seed: int) -> tuple[int, list[str]]:
    """Play ``games`` whole games of option set ``name`` (seeds from ``first_seed``, player
    counts in turn), print its line; returns (snapshots, divergences)."""
    counts = OPTION_SETS[name].counts
    snapshots, divergent, actions = 0, [], 0
    started = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        state, tally = play_checking(name, counts[seed % len(counts)], seed, every=every)
        snapshots += tally.snapshots
        divergent += tally.divergent
        actions += state.serial
    elapsed = time.perf_counter() - started
    print(
        f"{name:30} {snapshots:7} snapshots, {len(divergent):5} divergent "
        f"({games} games, {actions} actions, {elapsed:.0f} s)",
        flush=True,
    )
    for line in divergent[:SHOWN]:
        print(f"  {line}")
    return snapshots, divergent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="whole games per option set")
    parser.add_argument("--every", type=int, default=2, help="check every K-th state")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--set", nargs="*", choices=sorted(OPTION_SETS), default=None)
    args = parser.parse_args()
    total, broken = 0, 0
    for name in args.set or OPTION_SETS:
        snapshots, divergent = run(name, args.games, args.every, args.first_seed)
        total += snapshots
        broken += len(divergent)
    print(f"{'total':30} {total:7} snapshots, {broken:5} divergent")


if __name__ == "__main__":
    main()
