"""Speed of Hard's search (issue 36 point 6, the AI side): six Hard seats (``StrongBot(seed,
HARD)``) play the first ``--decisions`` decisions of each of ``--games`` six-player games at fixed
seeds, the first pending house in name order deciding. A Hard decision's work is counted, not
timed (``Difficulty.steps``), and the time budget given is far above its safety net, so the same
seeds make the same decisions on any machine and at any speed.

Prints the CPU seconds spent deciding, the searches' simulations and simulated decisions per CPU
second, and a digest of every action chosen: a change that only makes the search faster leaves
the digest as it was. Asserts nothing.

    python benchmarks/search_speed.py [--games N] [--decisions D] [--first-seed S] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import time

from westeros.ai.difficulty import HARD
from westeros.ai.protocol import ask
from westeros.ai.strong import StrongBot
from westeros.engine.flow import apply, pending
from westeros.engine.setup import new_game
from westeros.plugins import build_ruleset

NO_TIME_LIMIT = 10_000.0
"""A budget whose safety net (``Difficulty.time_cap``) never stops a search: counts decide."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=60, help="decisions per game")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true", help="print the top cProfile entries")
    args = parser.parse_args()
    rules = build_ruleset({})
    digest = hashlib.sha256()
    profiler = cProfile.Profile() if args.profile else None
    spent = 0.0
    decisions = searches = simulations = steps = 0
    for game in range(args.first_seed, args.first_seed + args.games):
        state = new_game(rules, 6, game, {})
        seats = {h: StrongBot(100 * game + i, HARD) for i, h in enumerate(state.houses)}
        made = 0
        while made < args.decisions and (waiting := pending(state)):
            house = min(waiting)
            started = time.process_time()
            if profiler:
                profiler.enable()
            action, _ = ask(seats[house], state, house, NO_TIME_LIMIT)
            if profiler:
                profiler.disable()
            spent += time.process_time() - started
            search = seats[house].last
            if search is not None and search.simulations:
                searches += 1
                simulations += search.simulations
                steps += search.steps
            line = f"{game} {house} {json.dumps(action.to_json(), sort_keys=True)}\n"
            digest.update(line.encode())
            state, _ = apply(state, house, action)
            made += 1
        decisions += made
    print(
        f"Hard search speed: {args.games} games x {args.decisions} decisions (seeds from "
        f"{args.first_seed})"
    )
    print(f"decisions: {decisions}, of which simulated: {searches}")
    print(f"CPU seconds deciding: {spent:.2f}")
    print(f"simulations: {simulations} ({simulations / spent:.1f} per CPU second)")
    print(f"simulated decisions: {steps} ({steps / spent:,.0f} per CPU second)")
    print(f"digest of the actions chosen: {digest.hexdigest()[:16]}")
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
