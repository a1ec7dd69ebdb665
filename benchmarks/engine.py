"""Engine speed (issue 2, acceptance 6): random full games (6 players unless ``--players``
says 3-8) per second on one core, decisions per second, and the mean state-copy time. Prints
figures; asserts nothing.

    python benchmarks/engine.py [--games N] [--players P] [--option ID ...] [--profile]

``--option`` turns a game option on (repeatable); 7 and 8 players turn on Mother of Dragons
(``mother_of_dragons``) unless options are given.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time

from westeros.conformance import random_game
from westeros.engine.setup import new_game
from westeros.plugins import build_ruleset

MAX_BASE_PLAYERS = 6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=6, choices=range(3, 9))
    parser.add_argument("--option", action="append", default=[], help="game option to turn on")
    parser.add_argument("--profile", action="store_true", help="print the top cProfile entries")
    args = parser.parse_args()
    chosen = args.option or (["mother_of_dragons"] if args.players > MAX_BASE_PLAYERS else [])
    options = dict.fromkeys(chosen, True)
    rules = build_ruleset(options)

    profiler = cProfile.Profile() if args.profile else None
    decisions = 0
    started = time.perf_counter()
    if profiler:
        profiler.enable()
    for seed in range(args.games):
        decisions += random_game(rules, args.players, seed, options, check=False).decisions
    if profiler:
        profiler.disable()
    elapsed = time.perf_counter() - started

    state = new_game(rules, args.players, 0, options)
    copies = 20_000
    t0 = time.perf_counter()
    for _ in range(copies):
        state.copy()
    copy_us = (time.perf_counter() - t0) / copies * 1e6
    samples = []
    for _ in range(5):
        t0 = time.perf_counter()
        state.hash()
        samples.append((time.perf_counter() - t0) * 1e6)

    print(f"options: {sorted(options) or 'none'}")
    print(f"random {args.players}-player full games: {args.games} in {elapsed:.2f} s")
    print(f"games per second (one core): {args.games / elapsed:.1f}")
    per_game = decisions / args.games
    print(f"decisions per second: {decisions / elapsed:,.0f} (mean {per_game:.0f} per game)")
    print(f"mean state copy: {copy_us:.1f} µs")
    print(f"state hash: {statistics.median(samples):.0f} µs (median of 5)")
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
