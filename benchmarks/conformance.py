"""Random-play conformance at scale (issue 2, acceptance 2; issue 12, acceptance 2): random
games with every invariant checked after every action, on both cores, per scenario: the base
game (3-6 players, with and without ports) and Mother of Dragons (7 and 8 players, and 3-6
players with vassals; each with and without sea orders + the Iron Bank). Prints games, crashes,
violations (both must be 0) and games/s for each scenario; ``--seed`` replays reported games.

    python benchmarks/conformance.py [--games N] [--workers W] [--scenario NAME ...]
    python benchmarks/conformance.py --scenario mod-8p --seed 184
"""

from __future__ import annotations

import argparse
import time
import traceback
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from westeros.conformance import random_game
from westeros.engine.content import Ruleset
from westeros.plugins import build_ruleset

MOD = {"mother_of_dragons": True}
BANK = {**MOD, "mod_sea_orders": True, "mod_iron_bank": True}
VASSALS = {**MOD, "mod_vassals": True}

# name -> (player counts played in turn, game options, plugins disabled)
Scenario = tuple[tuple[int, ...], Mapping[str, Any], tuple[str, ...]]
SCENARIOS: dict[str, Scenario] = {
    "base": ((3, 4, 5, 6), {}, ()),
    "base-no-ports": ((3, 4, 5, 6), {}, ("westeros_ports",)),
    "mod-7p": ((7,), MOD, ()),
    "mod-7p-iron-bank": ((7,), BANK, ()),
    "mod-8p": ((8,), MOD, ()),
    "mod-8p-iron-bank": ((8,), BANK, ()),
    "mod-vassals-3-6p": ((3, 4, 5, 6), VASSALS, ()),
    "mod-vassals-3-6p-iron-bank": ((3, 4, 5, 6), {**BANK, **VASSALS}, ()),
}

_RULES: dict[str, Ruleset] = {}


def rules(name: str) -> Ruleset:
    """The scenario's Ruleset (built once per process)."""
    if name not in _RULES:
        _, options, disabled = SCENARIOS[name]
        _RULES[name] = build_ruleset(options, disable=disabled)
    return _RULES[name]


def play(job: tuple[str, int]) -> tuple[str, int, int, str, list[str], int]:
    """Play one game; returns (scenario, players, seed, crash text, violations, decisions)."""
    name, seed = job
    counts, options, _ = SCENARIOS[name]
    players = counts[seed % len(counts)]
    try:
        result = random_game(rules(name), players, seed, options)
    except Exception:
        return name, players, seed, traceback.format_exc(limit=6), [], 0
    return name, players, seed, "", result.problems, result.decisions


def run(name: str, seeds: list[int], pool: ProcessPoolExecutor) -> None:
    """Play the games ``seeds`` of one scenario and print its figures."""
    crashes, broken, decisions = [], [], 0
    games = len(seeds)
    started = time.perf_counter()
    jobs = [(name, seed) for seed in seeds]
    for _, players, seed, crash, problems, n in pool.map(play, jobs, chunksize=10):
        decisions += n
        if crash:
            crashes.append((players, seed, crash))
        if problems:
            broken.append((players, seed, problems))
    elapsed = time.perf_counter() - started
    for players, seed, crash in crashes[:5]:
        print(f"  CRASH players={players} seed={seed}\n{crash}")
    for players, seed, problems in broken[:5]:
        print(f"  VIOLATION players={players} seed={seed}: {problems[:3]}")
    print(
        f"{name:28} games: {games} ({decisions:,} decisions) in {elapsed:.1f} s, "
        f"{games / elapsed:.1f} games/s; crashes: {len(crashes)}; violations: {len(broken)}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per scenario")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scenario", action="append", choices=sorted(SCENARIOS))
    parser.add_argument(
        "--seed", action="append", type=int, help="play only this game (a reported seed)"
    )
    args = parser.parse_args()
    seeds = args.seed or list(range(args.games))
    with ProcessPoolExecutor(args.workers) as pool:
        for name in args.scenario or SCENARIOS:
            run(name, seeds, pool)


if __name__ == "__main__":
    main()
