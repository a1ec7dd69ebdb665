"""Random-play conformance at scale (issue 2, acceptance 2): N random games (default 10,000)
across 3-6 players with every invariant checked after every action, on both cores.
Prints crashes and violations (both must be 0).

    python benchmarks/conformance.py [--games N] [--workers W]
"""

from __future__ import annotations

import argparse
import time
import traceback
from concurrent.futures import ProcessPoolExecutor

from westeros.conformance import random_game
from westeros.plugins import build_ruleset

_RULES = {}


def play(job: tuple[int, int, bool]) -> tuple[int, int, str, list[str], int]:
    """Play one game; returns (players, seed, crash text, violations, decisions)."""
    players, seed, ports = job
    key = ports
    if key not in _RULES:
        _RULES[key] = build_ruleset(disable=() if ports else ("westeros_ports",))
    try:
        result = random_game(_RULES[key], players, seed)
    except Exception:
        return players, seed, traceback.format_exc(limit=6), [], 0
    return players, seed, "", result.problems, result.decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    jobs = [(3 + i % 4, i, i % 5 != 4) for i in range(args.games)]
    crashes, broken, decisions = [], [], 0
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for players, seed, crash, problems, n in pool.map(play, jobs, chunksize=20):
            decisions += n
            if crash:
                crashes.append((players, seed, crash))
            if problems:
                broken.append((players, seed, problems))
    elapsed = time.perf_counter() - started
    for players, seed, crash in crashes[:5]:
        print(f"CRASH players={players} seed={seed}\n{crash}")
    for players, seed, problems in broken[:5]:
        print(f"VIOLATION players={players} seed={seed}: {problems[:3]}")
    print(f"games: {args.games} ({decisions:,} decisions) in {elapsed:.0f} s")
    print(f"crashes: {len(crashes)}")
    print(f"violations: {len(broken)}")


if __name__ == "__main__":
    main()
