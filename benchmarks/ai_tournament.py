"""AI tournament: N six-player games of 1 BaselineBot against 5 RandomBots (and against 5
PassiveBots), and N games of 6 BaselineBots, on both cores. Prints win rates, mean castles at
the end, rounds played, illegal actions (must be 0) and the baseline AI's decision time over
whole games (median and maximum). Prints figures; asserts nothing.

    python benchmarks/ai_tournament.py [--games N] [--workers W] [--players P] [--tides]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

os.environ.setdefault("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")

from westeros.ai import BaselineBot, PassiveBot, Player, RandomBot, play_game
from westeros.engine.content import Ruleset
from westeros.plugins import build_ruleset

SCENARIOS = ("1 baseline vs random", "1 baseline vs passive", "all baseline")
_RULES: list[Ruleset] = []


def lineup(scenario: str, players: int, game: int) -> list[Player]:
    """The seats of one game; the lone baseline AI moves round the table game by game."""
    if scenario == "all baseline":
        return [BaselineBot(game * 10 + i) for i in range(players)]
    other = RandomBot if "random" in scenario else PassiveBot
    seat = game % players
    return [BaselineBot(game) if i == seat else other(game * 10 + i) for i in range(players)]


def play(job: tuple[str, int, int, bool]) -> dict[str, object]:
    """Play one game; returns its summary (seats, winner, castles, times of baseline seats)."""
    scenario, players, game, tides = job
    if not _RULES:
        _RULES.append(build_ruleset())
    record = play_game(
        _RULES[0], lineup(scenario, players, game), 10_000 + game, {"tides_of_battle": tides}
    )
    return {
        "scenario": scenario,
        "seats": record.seats,
        "winner": record.winner,
        "castles": record.castles,
        "rounds": record.rounds,
        "faults": len(record.faults),
        "over_budget": record.over_budget,
        "times": [t for h, ts in record.times.items() if record.seats[h] == "baseline" for t in ts],
    }


def report(scenario: str, games: list[dict[str, object]]) -> None:
    """Print the figures of one scenario."""
    wins: Counter[str] = Counter()
    castles: dict[str, list[int]] = {}
    for g in games:
        seats = g["seats"]
        assert isinstance(seats, dict)
        wins[seats[g["winner"]]] += 1
        for house, n in g["castles"].items():  # type: ignore[attr-defined]
            castles.setdefault(seats[house], []).append(n)
    n = len(games)
    print(f"\n== {scenario}: {n} games")
    for name, counts in sorted(castles.items()):
        seats_per_game = len(counts) / n
        rate = wins[name] / n / seats_per_game
        print(
            f"  {name:9s} win rate per seat {rate:6.1%}  mean castles at the end "
            f"{statistics.mean(counts):.2f}"
        )
    by_house = Counter(str(g["winner"]) for g in games)
    print("  wins by house: " + ", ".join(f"{h} {n}" for h, n in sorted(by_house.items())))
    rounds = [g["rounds"] for g in games]
    print(f"  mean rounds {statistics.mean(rounds):.2f}")  # type: ignore[arg-type]
    print(f"  illegal actions or player errors: {sum(g['faults'] for g in games)}")  # type: ignore[misc]
    print(f"  decisions over the 1 s budget: {sum(g['over_budget'] for g in games)}")  # type: ignore[misc]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per scenario")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--tides", action="store_true", help="play with Tides of Battle")
    args = parser.parse_args()
    jobs = [(s, args.players, g, args.tides) for s in SCENARIOS for g in range(args.games)]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(play, jobs, chunksize=4))
    elapsed = time.perf_counter() - started
    for scenario in SCENARIOS:
        report(scenario, [r for r in results if r["scenario"] == scenario])
    times = [t for r in results for t in r["times"]]  # type: ignore[attr-defined]
    print(f"\nbaseline AI decision time over whole games ({len(times):,} decisions):")
    p99 = statistics.quantiles(times, n=100)[98]
    print(
        f"  median {statistics.median(times) * 1000:.2f} ms, 99th percentile "
        f"{p99 * 1000:.2f} ms, maximum {max(times) * 1000:.1f} ms"
    )
    print(f"{len(jobs)} games in {elapsed:.1f} s on {args.workers} worker(s)")


if __name__ == "__main__":
    main()
