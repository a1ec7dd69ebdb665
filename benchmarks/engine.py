"""Engine speed (issue 2, acceptance 6; issue 36 point 6): random full games (6 players unless
``--players`` says 3-8) per second on one core, decisions per second, the mean state-copy and
state-hash times, then the speed against the Python ``diplomacy`` engine side by side
(``engine_vs_diplomacy.py``: one process, interleaved rounds; said why not when the package is
missing). Prints figures; asserts nothing.

    python benchmarks/engine.py [--games N] [--players P] [--option ID ...] [--profile]
                                [--profile-search N] [--versus-rounds R]

Games per second count the process's CPU time (a shared machine's load does not count).
``--option`` turns a game option on (repeatable); 7 and 8 players turn on Mother of Dragons
(``mother_of_dragons``) unless options are given. ``--profile`` prints the top cProfile
entries of the random games; ``--profile-search N`` profiles N decisions of Hard AI seats
(the search's hot path: determinization, state copies, ``apply``, prompts, combat previews)
and prints the share of time spent in the engine. ``--versus-rounds 0`` skips the comparison.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from collections import Counter

from engine_vs_diplomacy import DEFAULT_CAP, compare, diplomacy_game, report
from westeros.ai.difficulty import HARD
from westeros.ai.protocol import ask
from westeros.ai.strong import StrongBot
from westeros.conformance import random_game
from westeros.engine.flow import apply, pending
from westeros.engine.setup import new_game
from westeros.plugins import build_ruleset

MAX_BASE_PLAYERS = 6
SEARCH_BUDGET = 2.0


def profile_search(decisions: int) -> None:
    """Profile ``decisions`` decisions of Hard AI seats playing a six-player game (every seat
    Hard, the first pending house in name order deciding) and print where the time goes."""
    rules = build_ruleset({})
    state = new_game(rules, 6, 0, {})
    seats = {house: StrongBot(i, HARD) for i, house in enumerate(state.houses)}
    profiler = cProfile.Profile()
    started = time.process_time()
    made = 0
    while made < decisions and (waiting := pending(state)):
        house = min(waiting)
        profiler.enable()
        action, _ = ask(seats[house], state, house, SEARCH_BUDGET)
        profiler.disable()
        state, _ = apply(state, house, action)
        made += 1
    spent = time.process_time() - started
    stats = pstats.Stats(profiler)
    shares: Counter[str] = Counter()
    for (path, _, _), (_, _, own, _, _) in stats.stats.items():
        if "/westeros/engine/" in path:
            shares["engine"] += own
        elif "/westeros/ai/" in path:
            shares["AI"] += own
        else:
            shares["plugins, base content, Python"] += own
    total = sum(shares.values())
    print(f"Hard AI decisions profiled: {made} in {spent:.1f} s CPU (profiler on)")
    for part, own in shares.most_common():
        print(f"  own time in {part}: {100 * own / total:.0f}%")
    stats.sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=6, choices=range(3, 9))
    parser.add_argument("--option", action="append", default=[], help="game option to turn on")
    parser.add_argument("--profile", action="store_true", help="print the top cProfile entries")
    parser.add_argument(
        "--profile-search", type=int, default=0, metavar="N", help="profile N Hard AI decisions"
    )
    parser.add_argument(
        "--versus-rounds", type=int, default=5, metavar="R", help="rounds against diplomacy"
    )
    args = parser.parse_args()
    chosen = args.option or (["mother_of_dragons"] if args.players > MAX_BASE_PLAYERS else [])
    options = dict.fromkeys(chosen, True)
    rules = build_ruleset(options)

    profiler = cProfile.Profile() if args.profile else None
    decisions = 0
    started = time.process_time()
    if profiler:
        profiler.enable()
    for seed in range(args.games):
        decisions += random_game(rules, args.players, seed, options, check=False).decisions
    if profiler:
        profiler.disable()
    elapsed = time.process_time() - started

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
    print(f"random {args.players}-player full games: {args.games} in {elapsed:.2f} s CPU")
    print(f"games per second (one core, CPU time): {args.games / elapsed:.1f}")
    per_game = decisions / args.games
    print(f"decisions per second: {decisions / elapsed:,.0f} (mean {per_game:.0f} per game)")
    print(f"mean state copy: {copy_us:.1f} µs")
    print(f"state hash: {statistics.median(samples):.0f} µs (median of 5)")
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    if args.profile_search:
        profile_search(args.profile_search)
    if args.versus_rounds:
        play = diplomacy_game()
        if isinstance(play, str):
            print(f"versus diplomacy: skipped: {play}")
        else:
            print(f"versus diplomacy ({args.versus_rounds} interleaved rounds, base game):")
            report(compare(play, args.versus_rounds, 20, 2, DEFAULT_CAP), DEFAULT_CAP)


if __name__ == "__main__":
    main()
