"""Engine speed against the Python ``diplomacy`` engine (issue 36 point 6, acceptance 4): random
full games per second of each, side by side in ONE process and INTERLEAVED in rounds (ours,
theirs, ours, theirs...), so that whatever load the machine carries hits both alike. Prints the
games per second of each, their ratio and a 95% interval of the ratio over the rounds. Asserts
nothing.

    python benchmarks/engine_vs_diplomacy.py [--rounds R] [--ours N] [--theirs M] [--cap P]

- Ours: ``westeros.conformance.random_game``, six players, base game, invariant checks off (as
  ``benchmarks/engine.py``); seeds 0, 1, 2... across the rounds.
- Theirs: a standard Diplomacy game (``diplomacy.Game()``, seven powers) in which every power
  gives each of its orderable locations a uniformly random order from
  ``game.get_all_possible_orders()``, phase after phase, until the game is done or ``--cap``
  phases (default 100) were processed. Random play almost never wins Diplomacy, so its games
  run to the engine's own 100-year draw (about 300 phases, over 1 s each here); the cap of 100
  phases (about 25-33 game years) is the definition that gives the 13x the issue measured
  (12.0-13.0x here with the engine before the speed work, by the machine's load). ``--cap 0``
  plays to the end: the ratio is then about 3.3 times larger (58x after the speed work).
- Time is the process's CPU time (``time.process_time``) of each batch: both engines are
  single-threaded Python, and CPU time is less disturbed than wall time by other processes on
  a shared machine. The ratio of a round is (our games/s) / (their games/s); the interval is
  a Student t interval of the mean log ratio over the rounds (the geometric mean ratio).

``diplomacy`` is not a dependency of the game: ``pip install -e .[bench]`` installs it
(``diplomacy==1.1.2``, the PyPI sdist; it builds and runs on Python 3.11 as it is, pulling
tornado, ujson, bcrypt, pytz, tqdm, coloredlogs and python-dateutil). Without it this prints
why and exits.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from westeros.conformance import random_game
from westeros.plugins import build_ruleset

DEFAULT_CAP = 100
PLAYERS = 6
T_975 = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    6: 2.447,
    7: 2.365,
    8: 2.306,
    9: 2.262,
    10: 2.228,
    12: 2.179,
    15: 2.131,
    20: 2.086,
    30: 2.042,
}
"""Two-sided 95% quantiles of Student's t by degrees of freedom (the next lower entry is used
between them, which widens the interval; 1.96 from 60 on)."""


def diplomacy_game() -> Callable[[int, int], int] | str:
    """A function playing one random Diplomacy game (seed, phase cap) and returning the
    phases it processed; or, when the ``diplomacy`` package is missing, why not."""
    try:
        from diplomacy import Game
    except ImportError as error:
        return (
            f"the diplomacy package is not installed ({error}); "
            "install it with: pip install -e .[bench]   (diplomacy==1.1.2)"
        )

    def play(seed: int, cap: int) -> int:
        rnd = random.Random(seed)
        game: Any = Game()
        phases = 0
        while not game.is_game_done and (cap <= 0 or phases < cap):
            possible = game.get_all_possible_orders()
            for power in game.powers:
                orders = [
                    rnd.choice(possible[loc])
                    for loc in game.get_orderable_locations(power)
                    if possible[loc]
                ]
                game.set_orders(power, orders)
            game.process()
            phases += 1
        return phases

    return play


@dataclass
class Comparison:
    """Per-round rates of both engines."""

    ours: list[float]
    theirs: list[float]
    our_games: int
    our_seconds: float
    their_games: int
    their_seconds: float
    their_phases: int

    @property
    def ratio(self) -> float:
        """Overall games per second, ours over theirs."""
        return (self.our_games / self.our_seconds) / (self.their_games / self.their_seconds)

    def interval(self) -> tuple[float, float]:
        """A 95% interval of the ratio from the rounds' log ratios."""
        logs = [math.log(o / t) for o, t in zip(self.ours, self.theirs, strict=True)]
        if len(logs) < 2:
            return (math.nan, math.nan)
        df = len(logs) - 1
        t = 1.96 if df >= 60 else T_975[max(k for k in T_975 if k <= df)]
        half = t * statistics.stdev(logs) / math.sqrt(len(logs))
        mean = statistics.fmean(logs)
        return (math.exp(mean - half), math.exp(mean + half))


def compare(
    play: Callable[[int, int], int],
    rounds: int,
    ours_per_round: int,
    theirs_per_round: int,
    cap: int,
    progress: Callable[[str], None] | None = None,
) -> Comparison:
    """Run ``rounds`` rounds, each ``ours_per_round`` of our random games then
    ``theirs_per_round`` random Diplomacy games, in this one process."""
    rules = build_ruleset({})
    result = Comparison([], [], 0, 0.0, 0, 0.0, 0)
    for r in range(rounds):
        started = time.process_time()
        for i in range(ours_per_round):
            random_game(rules, PLAYERS, r * ours_per_round + i, {}, check=False)
        ours = time.process_time() - started
        started = time.process_time()
        for i in range(theirs_per_round):
            result.their_phases += play(r * theirs_per_round + i, cap)
        theirs = time.process_time() - started
        result.ours.append(ours_per_round / ours)
        result.theirs.append(theirs_per_round / theirs)
        result.our_games += ours_per_round
        result.our_seconds += ours
        result.their_games += theirs_per_round
        result.their_seconds += theirs
        if progress:
            progress(
                f"round {r + 1}/{rounds}: ours {result.ours[-1]:.1f} games/s, "
                f"theirs {result.theirs[-1]:.2f} games/s, "
                f"ratio {result.ours[-1] / result.theirs[-1]:.1f}x"
            )
    return result


def report(result: Comparison, cap: int) -> None:
    """Print the figures of ``result``."""
    low, high = result.interval()
    spread = (
        f"95% interval over {len(result.ours)} interleaved rounds [{low:.1f}, {high:.1f}]"
        if not math.isnan(low)
        else "one round: no interval"
    )
    capped = f"capped at {cap} phases" if cap > 0 else "played to the end"
    print(
        f"ours: random {PLAYERS}-player games: {result.our_games} in {result.our_seconds:.2f} s "
        f"CPU = {result.our_games / result.our_seconds:.1f} games/s"
    )
    print(
        f"theirs: random Diplomacy games ({capped}): {result.their_games} in "
        f"{result.their_seconds:.2f} s CPU = {result.their_games / result.their_seconds:.2f} "
        f"games/s (mean {result.their_phases / result.their_games:.0f} phases)"
    )
    print(f"ratio (ours/theirs, games per second): {result.ratio:.1f}x; {spread}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--ours", type=int, default=30, help="our games per round")
    parser.add_argument("--theirs", type=int, default=3, help="Diplomacy games per round")
    parser.add_argument(
        "--cap", type=int, default=DEFAULT_CAP, help="most phases per Diplomacy game (0: none)"
    )
    args = parser.parse_args()
    play = diplomacy_game()
    if isinstance(play, str):
        print(f"skipped: {play}")
        return
    result = compare(play, args.rounds, args.ours, args.theirs, args.cap, progress=print)
    report(result, args.cap)


if __name__ == "__main__":
    main()
