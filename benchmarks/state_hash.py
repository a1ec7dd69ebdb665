"""State hash speed as a server sees it (issue 10, docs/online.md "Capacity"): ``--games``
games in memory at once, random legal actions, one game stepped at a time in random order,
each new state hashed as a worker does after every action. Prints the mean time per hash,
the number of texts the hash keeps and the process's peak memory. Asserts nothing.

    python benchmarks/state_hash.py [--games 200] [--steps 20000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import resource
import time

from westeros.engine import apply, encoding, new_game, pending, random_action
from westeros.engine.state import State
from westeros.plugins import build_ruleset

HOUSES = 6


def _step(state: State, rnd: random.Random) -> State | None:
    waiting = pending(state)
    if not waiting:
        return None
    house = rnd.choice(sorted(waiting))
    state, _ = apply(state, house, random_action(state, house, rnd))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = build_ruleset({})
    games: list[tuple[State, random.Random]] = []
    for seed in range(args.games):  # each game somewhere in its first rounds
        rnd = random.Random(seed)
        state = new_game(rules, HOUSES, seed)
        for _ in range(rnd.randrange(50, 300)):
            state = _step(state, rnd) or state
        games.append((state, rnd))
    pick = random.Random(args.seed)
    spent, hashed = 0.0, 0
    for _ in range(args.steps):
        i = pick.randrange(args.games)
        state, rnd = games[i]
        after = _step(state, rnd)
        if after is None:
            continue
        games[i] = (after, rnd)
        t0 = time.perf_counter()
        after.hash()
        spent += time.perf_counter() - t0
        hashed += 1
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{args.games} games, {hashed} hashes: {1000 * spent / max(1, hashed):.3f} ms per hash")
    print(f"texts kept: {len(encoding._TEXT_MEMO)}; peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
