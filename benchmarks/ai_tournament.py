"""AI tournament (issue 7): six-player games with fixed seeds, the candidate's house rotated game
by game, candidates against baselines (random, passive, the baseline AI), on both cores.

Prints, per scenario: win rates with 95% Wilson confidence intervals, mean castles at the end,
win rate per house, rounds, illegal actions (must be 0) and decision times (median and maximum,
for every decision and for Planning decisions); the acceptance targets of the issue with the
figures reached; and per-personality behaviour figures (attacks per round, power held, bid
sizes) with the pairwise differences. Prints figures; asserts nothing.

    python benchmarks/ai_tournament.py [--games N] [--scenario NAME ...] [--workers W] [--tides]

Scenarios (default: all): hard-vs-random, hard-vs-passive, hard-vs-baseline, baseline-vs-hard,
normal-vs-baseline, easy-vs-baseline, baseline-vs-random, baseline-vs-passive, all-baseline,
personalities, and Standard's (issue 15; since session 31 the offered Standard is the lightest
search, ``difficulty.STANDARD_SEARCH``, and the rule-based Standard AI of before is the kind
``rules``): standard-vs-baseline, hard-vs-standard, standard-vs-hard, hard-vs-field (Hard
against Standard, baseline and Normal seats); rules-vs-baseline and normal-vs-rules;
hard-learned-vs-hard (Hard with the learned evaluation against five Hard without it);
lite-vs-baseline, hard-vs-lite and normal-vs-lite (the light search on the rule-based AI,
``LITE``);
Mother of Dragons at 8 players (issue 12): mod8-hard-vs-baseline (Hard's house rotating over the
8) and mod8-hard-targaryen (Hard as Targaryen), each against 7 baseline AIs. Against the
sparring bot written outside the team (issue 36, point 1; the figures to steer by):
``LEVEL-vs-sparring`` (a lone level against five sparring bots) and ``sparring-vs-LEVEL`` (a
lone sparring bot against five of the level) for each of easy, baseline, standard, normal and
hard, and for rules and lite, and mixed-sparring (one seat of each of the first five and one
sparring bot, the seats rotating so that every player meets every other in every pair of houses
equally often); normal-vs-standard completes "each level against five of the level below it".
The sparring bot is imported, never copied, from ``$WESTEROS_SPARRING_DIR`` or else
``../shared/sparring`` beside the repository; where it is absent, asking for a sparring scenario
exits with status 2 and says where it looked, and a run of all scenarios leaves the sparring
ones out (with a note on stderr).
``--games`` is per scenario; ``--games-for name=N`` overrides one scenario. A long scenario can
be played in parts: ``--first K`` starts at game K, ``--record FILE`` keeps every finished game in
FILE (a stopped run started again with the same FILE plays only the games not in it yet), and
``--merge FILE ...`` prints the report of the recorded games (``tournament_records``).
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import math
import os
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

os.environ.setdefault("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")

import tournament_records as records
import westeros_ai_personalities.plugin as personalities_plugin
from westeros.ai import BaselineBot, PassiveBot, Player, RandomBot, play_game
from westeros.ai.difficulty import HARD_LEARNED, NORMAL, Difficulty
from westeros.ai.difficulty import LEVELS as OFFERED_LEVELS
from westeros.ai.personality import AIPersonality
from westeros.ai.standard import StandardBot
from westeros.ai.strong import StrongBot
from westeros.engine.content import Ruleset
from westeros.plugins import build_ruleset, load

PLAYERS = 6
BUDGET = 2.0
SEED_BASE = 10_000
ROOT = Path(__file__).resolve().parents[1]
Factory = Callable[[int], Player]
SPARRING = "sparring"
RULES = "rules"
SPARRING_ENV = "WESTEROS_SPARRING_DIR"
SPARRING_LEVELS = ("easy", "baseline", "standard", "normal", "hard")
"""The levels measured against the sparring bot, weakest first: the retired Easy (the baseline
policy with a quarter of its decisions random), the baseline AI (offered as Easy), Standard,
Normal and Hard."""
SPARRING_LONE: dict[str, tuple[str, str]] = {
    f"{lone}-vs-{field}": (lone, field)
    # rules: the rule-based Standard AI of before; lite: the light search on it (LITE);
    # hard-learned: Hard with the learned evaluation (HARD_LEARNED)
    for level in (*SPARRING_LEVELS, RULES, "lite", HARD_LEARNED.id)
    for lone, field in ((level, SPARRING), (SPARRING, level))
}
MIXED_SPARRING = "mixed-sparring"
SPARRING_SCENARIOS = (*SPARRING_LONE, MIXED_SPARRING)
LONE: dict[str, tuple[str, str]] = {
    "hard-vs-random": ("hard", "random"),
    "hard-vs-passive": ("hard", "passive"),
    "hard-vs-baseline": ("hard", "baseline"),
    "baseline-vs-hard": ("baseline", "hard"),
    "normal-vs-baseline": ("normal", "baseline"),
    "easy-vs-baseline": ("easy", "baseline"),
    "baseline-vs-random": ("baseline", "random"),
    "baseline-vs-passive": ("baseline", "passive"),
    "standard-vs-baseline": ("standard", "baseline"),
    "hard-vs-standard": ("hard", "standard"),
    "standard-vs-hard": ("standard", "hard"),
    # Whether the lightest search holds its own against the strongest, either way round.
    "normal-vs-hard": ("normal", "hard"),
    "hard-vs-normal": ("hard", "normal"),
    # With standard-vs-baseline and hard-vs-normal: each offered level against five of the
    # level below it (issue 36, acceptance 1).
    "normal-vs-standard": ("normal", "standard"),
    # The learned evaluation (issue 15, point 2): Hard with it against five Hard without it.
    "hard-learned-vs-hard": (HARD_LEARNED.id, "hard"),
    # A Standard level that searches lightly (issue 15, the product owner's option b).
    "lite-vs-baseline": ("lite", "baseline"),
    "hard-vs-lite": ("hard", "lite"),
    "normal-vs-lite": ("normal", "lite"),  # would Normal stay above a searching Standard?
    # The rule-based Standard AI that Standard was until session 31.
    "rules-vs-baseline": (RULES, "baseline"),
    "normal-vs-rules": ("normal", RULES),
    **SPARRING_LONE,
}
FIELD = ("standard", "baseline", "normal")
"""The mixed field of hard-vs-field, seat by seat round the table; the field turns one seat
after every round of the table (six games), so that each of Hard's houses meets every level
in every other house equally often."""
SCENARIOS = (*LONE, "hard-vs-field", "all-baseline", "personalities", MIXED_SPARRING)
LITE = Difficulty(
    "lite", "Lite", 6, 4, 1, True, True, steps=1200, model="standard", read_opponents=True
)
"""Normal's light search on the rule-based Standard AI, reading its opponents like Hard: what
that AI would be if it looked ahead (not offered; docs/ai.md, sessions 18 and 22)."""
LEVELS: dict[str, Difficulty] = {
    **OFFERED_LEVELS,  # easy (retired), standard, normal, hard
    HARD_LEARNED.id: HARD_LEARNED,
    LITE.id: LITE,
}
PERSONALITY_LEVEL = NORMAL
_RULES: list[Ruleset] = []
_PERSONALITIES: list[tuple[AIPersonality, ...]] = []


def personalities() -> tuple[AIPersonality, ...]:
    """The personalities registered through the AI hook (the bundled plugin's included)."""
    if not _PERSONALITIES:
        loaded = load(extra=[personalities_plugin])
        _PERSONALITIES.append(tuple(loaded.ai_personalities))
    return _PERSONALITIES[0]


class RulesBot(StandardBot):
    """The rule-based Standard AI, named ``rules`` in the records: the offered Standard is the
    lightest search since session 31 (``STANDARD_SEARCH``)."""

    name = RULES


def make(kind: str, seed: int) -> Player:
    """A player of ``kind``: a difficulty level, one of the reference bots or the sparring bot."""
    if kind in LEVELS:
        return StrongBot(seed, LEVELS[kind])
    if kind == SPARRING:
        return sparring_bot()(seed)
    bots: dict[str, Factory] = {
        "random": RandomBot,
        "passive": PassiveBot,
        "baseline": BaselineBot,
        RULES: RulesBot,
    }
    return bots[kind](seed)


def lineup(scenario: str, game: int) -> list[Player]:
    """The seats of one game; the lone candidate moves round the table game by game."""
    if scenario == "all-baseline":
        return [BaselineBot(game * 10 + i) for i in range(PLAYERS)]
    if scenario == "personalities":
        styles = personalities()
        chosen = [styles[(game + k) % len(styles)] for k in range(min(4, len(styles)))]
        seats: list[Player] = [
            StrongBot(game * 10 + k, PERSONALITY_LEVEL, p) for k, p in enumerate(chosen)
        ]
        seats += [BaselineBot(game * 10 + k) for k in range(len(seats), PLAYERS)]
        shift = game % PLAYERS
        return seats[-shift:] + seats[:-shift] if shift else seats
    if scenario == MIXED_SPARRING:
        return [make(kind, game * 10 + i) for i, kind in enumerate(mixed_kinds(game))]
    seat = game % PLAYERS
    if scenario == "hard-vs-field":
        turn = game // PLAYERS
        others = [FIELD[(turn + k) % len(FIELD)] for k in range(PLAYERS - 1)]
        kinds = [*others[:seat], "hard", *others[seat:]]
        return [make(kind, game * 10 + i) for i, kind in enumerate(kinds)]
    lone, field = LONE[scenario]
    return [make(lone, game) if i == seat else make(field, game * 10 + i) for i in range(PLAYERS)]


# ---------------------------------------------------------------------------------- the sparring
# field (issue 36, point 1): a bot written outside the team, imported from outside the repository.


class SparringMissing(RuntimeError):
    """The sparring bot cannot be loaded: the message says where it was looked for and why."""


_SPARRING: list[Factory] = []


def sparring_dir() -> Path:
    """The folder of the sparring bot: ``$WESTEROS_SPARRING_DIR``, else ``../shared/sparring``
    beside the repository."""
    given = os.environ.get(SPARRING_ENV)
    return Path(given) if given else ROOT.parent / "shared" / "sparring"


def sparring_bot() -> Factory:
    """``SparringBot`` (a player made from a seed), imported from ``sparring_dir()``, never
    copied into the project. Raises ``SparringMissing`` naming the file where that fails."""
    if not _SPARRING:
        source = sparring_dir() / "sparring_bot.py"
        hint = f"set {SPARRING_ENV} to the folder that holds sparring_bot.py"
        if not source.is_file():
            raise SparringMissing(f"the sparring bot is not there: no file {source} ({hint})")
        spec = importlib.util.spec_from_file_location("sparring_bot", source)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
            bot = module.SparringBot
        except Exception as exc:  # outside code: whatever it raises is reported, with the file
            raise SparringMissing(f"the sparring bot in {source} does not load: {exc!r}") from exc
        _SPARRING.append(bot)
    return _SPARRING[0]


MIXED = (*SPARRING_LEVELS, SPARRING)
"""The six players of mixed-sparring, one seat each."""


def moebius(a: int, b: int, c: int, d: int) -> tuple[int, ...]:
    """x -> (ax + b) / (cx + d) on the six points of the projective line over GF(5), the point
    at infinity numbered 5."""

    def image(x: int) -> int:
        top, bottom = (a, c) if x == 5 else ((a * x + b) % 5, (c * x + d) % 5)
        return 5 if bottom == 0 else top * pow(bottom, -1, 5) % 5

    return tuple(image(x) for x in range(6))


def mixed_tables() -> list[tuple[int, ...]]:
    """The seats of mixed-sparring's players (``MIXED``), one tuple per game of a 120-game cycle.

    The 120 seatings are the group PGL(2, 5) acting on six points: it is sharply 3-transitive,
    so over the cycle every player sits at every seat 20 times and, while one player holds a
    seat, every other player holds every other seat equally often (4 times); a house's figure
    says how a level plays it, not which neighbours it always met. The games come in blocks of
    six, one block per coset of a cyclic subgroup acting regularly: within each block every
    player sits at every seat once, so even a short run rotates every player round the table."""
    group = sorted(
        {
            moebius(a, b, c, d)
            for a, b, c, d in itertools.product(range(5), repeat=4)
            if (a * d - b * c) % 5
        }
    )

    def one_cycle(g: tuple[int, ...]) -> bool:
        point, visited = 0, set()
        while point not in visited:
            visited.add(point)
            point = g[point]
        return len(visited) == 6

    turn = next(g for g in group if one_cycle(g))
    powers = [tuple(range(6))]
    while len(powers) < 6:
        powers.append(tuple(turn[x] for x in powers[-1]))
    tables: list[tuple[int, ...]] = []
    for g in group:
        if g not in tables:
            tables.extend(tuple(g[x] for x in power) for power in powers)
    return tables


_MIXED_TABLES = mixed_tables()


def mixed_kinds(game: int) -> list[str]:
    """The player at each seat (setup house order) in game ``game`` of mixed-sparring."""
    kinds = [""] * PLAYERS
    for kind, seat in zip(MIXED, _MIXED_TABLES[game % len(_MIXED_TABLES)], strict=True):
        kinds[seat] = kind
    return kinds


def play(job: tuple[str, int, bool]) -> dict[str, Any]:
    """Play one game; returns its summary (picklable)."""
    scenario, game, tides = job
    seats: Sequence[Player] | Mapping[str, Player]
    if scenario in MOD_SCENARIOS:
        rules, seats, options = mod_game(scenario, game, tides)
    else:
        if not _RULES:
            _RULES.append(build_ruleset())
        rules, seats, options = _RULES[0], lineup(scenario, game), {"tides_of_battle": tides}
    started = time.perf_counter()
    record = play_game(rules, seats, SEED_BASE + game, options, budget=BUDGET)
    return {
        "scenario": scenario,
        "game": game,
        "tides": tides,
        "seats": record.seats,
        "winner": record.winner,
        "castles": record.castles,
        "rounds": record.rounds,
        "faults": len(record.faults),
        "times": {
            h: list(zip(record.times[h], record.prompts[h], strict=True)) for h in record.times
        },
        "behaviour": {
            h: (b.attacks_per_round, b.power_held, b.mean_bid) for h, b in record.behaviour.items()
        },
        "seconds": time.perf_counter() - started,
    }


# ---------------------------------------------------------------------------------- Mother of
# Dragons (issue 12, acceptance 5): 8-player games, one Hard seat against 7 baseline AIs.

MOD_PLAYERS = 8
MOD_OPTIONS = {"mother_of_dragons": True}
MOD_ROTATING = "mod8-hard-vs-baseline"
"""Hard's house moves round the table game by game, over all 8 houses."""
MOD_TARGARYEN = "mod8-hard-targaryen"
"""Hard always plays Targaryen (11.4), the 8th house."""
MOD_SCENARIOS = (MOD_ROTATING, MOD_TARGARYEN)
TARGARYEN = "targaryen"
_MOD_RULES: list[Ruleset] = []


def mod_rules() -> Ruleset:
    """The ruleset of an 8-player Mother of Dragons game (built once per process)."""
    if not _MOD_RULES:
        _MOD_RULES.append(build_ruleset(MOD_OPTIONS))
    return _MOD_RULES[0]


def mod_houses() -> tuple[str, ...]:
    """The 8 houses in setup order (11.2.2)."""
    return mod_rules().setups[MOD_PLAYERS].houses


def mod_lineup(scenario: str, game: int) -> dict[str, Player]:
    """The seats of one MoD game by house: Hard on the rotating house or on Targaryen, the
    baseline AI everywhere else."""
    houses = mod_houses()
    hard = houses[game % MOD_PLAYERS] if scenario == MOD_ROTATING else TARGARYEN
    return {
        h: make("hard", game) if h == hard else BaselineBot(game * 10 + i)
        for i, h in enumerate(houses)
    }


def mod_game(
    scenario: str, game: int, tides: bool
) -> tuple[Ruleset, dict[str, Player], dict[str, bool]]:
    """The ruleset, seats and options of one MoD game."""
    return mod_rules(), mod_lineup(scenario, game), {**MOD_OPTIONS, "tides_of_battle": tides}


# ---------------------------------------------------------------------------------- figures


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(wins: int, n: int) -> str:
    """``wins``/``n`` as a rate with its confidence interval."""
    low, high = wilson(wins, n)
    return f"{wins / n if n else 0:6.1%} [{low:5.1%}, {high:5.1%}] ({wins}/{n})"


def seat_stats(games: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per player name: seats, wins, castles, wins and seats per house, decision times."""
    out: dict[str, dict[str, Any]] = {}
    for g in games:
        for house, name in g["seats"].items():
            s = out.setdefault(
                name,
                {
                    "seats": 0,
                    "wins": 0,
                    "castles": [],
                    "house": Counter(),
                    "won": Counter(),
                    "t": [],
                },
            )
            s["seats"] += 1
            s["castles"].append(g["castles"][house])
            s["house"][house] += 1
            if g["winner"] == house:
                s["wins"] += 1
                s["won"][house] += 1
            s["t"].extend(g["times"][house])
    return out


def times_line(times: Sequence[tuple[float, str]], kind: str | None = None) -> str:
    """Median and maximum decision time (of ``kind`` decisions only, if given)."""
    chosen = [t for t, k in times if kind is None or k == kind]
    if not chosen:
        return "no decisions"
    return (
        f"median {statistics.median(chosen) * 1000:7.1f} ms, maximum "
        f"{max(chosen) * 1000:7.1f} ms over {len(chosen):,} decisions"
    )


def report(scenario: str, games: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Print the figures of one scenario; returns its per-player statistics."""
    n = len(games)
    stats = seat_stats(games)
    minutes = sum(g["seconds"] for g in games) / 60
    print(f"\n== {scenario}: {n} games ({minutes:.1f} game-minutes)")
    for name, s in sorted(stats.items(), key=lambda kv: kv[1]["seats"]):
        print(
            f"  {name:22s} win rate per seat {rate(s['wins'], s['seats'])}  "
            f"mean castles at the end {statistics.mean(s['castles']):.2f}"
        )
        if s["seats"] <= n:
            per_house = ", ".join(
                f"{h} {s['won'][h] / s['house'][h]:.0%} ({s['won'][h]}/{s['house'][h]})"
                for h in sorted(s["house"])
            )
            print(f"  {'':22s} win rate per house: {per_house}")
        print(f"  {'':22s} decision time: {times_line(s['t'])}")
        print(f"  {'':22s} planning decisions: {times_line(s['t'], 'place_orders')}")
    by_house = Counter(str(g["winner"]) for g in games)
    print("  wins by house: " + ", ".join(f"{h} {c}" for h, c in sorted(by_house.items())))
    print(f"  mean rounds {statistics.mean(g['rounds'] for g in games):.2f}")
    print(f"  illegal actions or player errors: {sum(g['faults'] for g in games)}")
    return stats


def behaviour_report(games: list[dict[str, Any]]) -> None:
    """Per-personality behaviour figures and, for every pair, the figure differing most."""
    figures: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    for g in games:
        for house, name in g["seats"].items():
            figures[name].append(tuple(g["behaviour"][house]))
    names = ("attacks per round", "power held", "bid size")
    means = {
        p: tuple(statistics.mean(f[i] for f in fs) for i in range(3)) for p, fs in figures.items()
    }
    print("\n== personality behaviour (means per seat)")
    print(f"  {'player':22s} " + "  ".join(f"{n:>17s}" for n in names))
    for p, m in sorted(means.items()):
        print(f"  {p:22s} " + "  ".join(f"{v:17.2f}" for v in m))
    styles = sorted(p for p in means if p.startswith(PERSONALITY_LEVEL.id + "-"))
    print("  pairwise: the largest relative difference (target: at least 25%)")
    for a, b in itertools.combinations(styles, 2):
        diffs = [
            (abs(x - y) / max(abs(x), abs(y)) if max(abs(x), abs(y)) else 0.0, n)
            for x, y, n in zip(means[a], means[b], names, strict=True)
        ]
        best = max(diffs)
        verdict = "ok" if best[0] >= 0.25 else "BELOW TARGET"
        print(f"    {a} / {b}: {best[0]:5.1%} in {best[1]} ({verdict})")


def acceptance(
    results: dict[str, dict[str, dict[str, Any]]], easy: list[tuple[float, str]]
) -> None:
    """Print the issue's acceptance figures that the scenarios run cover."""
    print("\n== acceptance (issue 7)")

    def line(text: str, ok: bool) -> None:
        print(f"  [{'met' if ok else 'NOT MET'}] {text}")

    hard = "hard"
    if "hard-vs-random" in results:
        s = results["hard-vs-random"][hard]
        line(
            f"1. Hard vs 5 random: {rate(s['wins'], s['seats'])}; target >= 90% over >= 120 games",
            s["wins"] >= 0.9 * s["seats"] and s["seats"] >= 120,
        )
    if "hard-vs-baseline" in results:
        s = results["hard-vs-baseline"][hard]
        worst = min(s["won"][h] / s["house"][h] for h in s["house"])
        line(
            f"2. Hard vs 5 baseline: {rate(s['wins'], s['seats'])}; target >= 33.3% over >= 300",
            s["wins"] >= s["seats"] / 3 and s["seats"] >= 300,
        )
        line(f"2. ... worst house {worst:.1%}; target >= 16.7% with every house", worst >= 1 / 6)
    if "baseline-vs-hard" in results:
        s = results["baseline-vs-hard"]["baseline"]
        line(
            f"3. lone baseline vs 5 Hard: {rate(s['wins'], s['seats'])}; target <= 8%",
            s["wins"] <= 0.08 * s["seats"],
        )
    planning = [
        t for r in results.values() if hard in r for t, k in r[hard]["t"] if k == "place_orders"
    ]
    if planning:
        med, top = statistics.median(planning), max(planning)
        line(
            f"4. Hard planning: median {med:.2f} s (<= 1 s), maximum {top:.2f} s (<= 2 s)",
            med <= 1.0 and top <= 2.0,
        )
    if easy:
        top = max(t for t, _ in easy)
        line(f"4. Easy decisions: maximum {top:.3f} s (<= 0.2 s)", top <= 0.2)
    standard_acceptance(results, line)


def standard_acceptance(
    results: dict[str, dict[str, dict[str, Any]]], line: Callable[[str, bool], None]
) -> None:
    """Print the Standard AI's targets (issue 15, point 1) that the scenarios run cover."""

    def lone(scenario: str, name: str) -> dict[str, Any] | None:
        return results[scenario][name] if scenario in results else None

    def worst(s: dict[str, Any]) -> float:
        return min(s["won"][h] / s["house"][h] for h in s["house"])

    s = lone("standard-vs-baseline", "standard")
    if s is not None:
        line(
            f"15.1 lone Standard vs 5 baseline: {rate(s['wins'], s['seats'])}; target >= 60%",
            s["wins"] >= 0.6 * s["seats"],
        )
    s = lone("hard-vs-standard", "hard")
    if s is not None:
        line(
            f"15.1 lone Hard vs 5 Standard: {rate(s['wins'], s['seats'])}; target >= 50%",
            s["wins"] >= 0.5 * s["seats"],
        )
        low = worst(s)
        line(f"15.1 ... worst house {low:.1%}; target >= 25% with every house", low >= 0.25)
    s = lone("standard-vs-hard", "standard")
    if s is not None:
        line(
            f"15.1 lone Standard vs 5 Hard: {rate(s['wins'], s['seats'])}; target <= 5%",
            s["wins"] <= 0.05 * s["seats"],
        )
    s = lone("hard-vs-field", "hard")
    if s is not None:
        line(
            f"15.1 Hard vs a Standard/baseline/Normal field: {rate(s['wins'], s['seats'])}; "
            "target >= 40%",
            s["wins"] >= 0.4 * s["seats"],
        )


def sparring_acceptance(results: dict[str, dict[str, dict[str, Any]]]) -> None:
    """Print issue 36's goals (acceptance 1) that the scenarios run cover, measured against the
    sparring bot and level against level."""
    lines: list[str] = []

    def line(text: str, ok: bool) -> None:
        lines.append(f"  [{'met' if ok else 'NOT MET'}] {text}")

    def lone(scenario: str, name: str) -> dict[str, Any] | None:
        return results[scenario].get(name) if scenario in results else None

    def share(s: dict[str, Any]) -> float:
        return s["wins"] / s["seats"]

    s = lone("hard-vs-sparring", "hard")
    if s is not None:
        line(
            f"36.1 Hard vs 5 sparring: {rate(s['wins'], s['seats'])}; target >= 50%",
            share(s) >= 0.5,
        )
        won, seated = s["won"], s["house"]
        house = min(seated, key=lambda h: won[h] / seated[h])
        low = won[house] / seated[house]
        line(
            f"36.1 ... worst house {house} {low:.1%} ({won[house]}/{seated[house]}); target >= 25% "
            "with every house",
            low >= 0.25,
        )
    s = lone("sparring-vs-hard", SPARRING)
    if s is not None:
        line(
            f"36.1 lone sparring vs 5 Hard: {rate(s['wins'], s['seats'])}; target <= 5%",
            share(s) <= 0.05,
        )
        hard = results["sparring-vs-hard"]["hard"]["t"]
        planning = [t for t, kind in hard if kind == "place_orders"]
        if planning:
            med, top = statistics.median(planning), max(planning)
            line(
                f"36.1 Hard planning with five Hard seats: median {med:.2f} s, maximum "
                f"{top:.2f} s; target maximum <= 2 s",
                top <= 2.0,
            )
    s = lone("standard-vs-sparring", "standard")
    if s is not None:
        line(
            f"36.1 Standard vs 5 sparring: {rate(s['wins'], s['seats'])}; target >= 16.7% (the "
            "fair share)",
            s["wins"] * PLAYERS >= s["seats"],
        )
    trio = [lone(f"{level}-vs-sparring", level) for level in ("standard", "normal", "hard")]
    if all(t is not None for t in trio):
        low, mid, high = (share(t) for t in trio if t is not None)
        line(
            f"36.1 Normal vs 5 sparring {mid:.1%}, between Standard {low:.1%} and Hard {high:.1%}",
            low < mid < high,
        )
    for upper, lower in (("standard", "baseline"), ("normal", "standard"), ("hard", "normal")):
        s = lone(f"{upper}-vs-{lower}", upper)
        if s is not None:
            line(
                f"36.1 {upper} vs 5 {lower}: {rate(s['wins'], s['seats'])}; target above 16.7% "
                "(the fair share)",
                s["wins"] * PLAYERS > s["seats"],
            )
    if MIXED_SPARRING in results:
        mixed = results[MIXED_SPARRING]
        ranked = [(level, share(mixed[level])) for level in SPARRING_LEVELS if level in mixed]
        order = " < ".join(f"{level} {v:.1%}" for level, v in ranked)
        line(
            f"36.3 mixed-sparring, the levels head to head: {order}; target strictly in this order",
            all(a < b for (_, a), (_, b) in itertools.pairwise(ranked)),
        )
    if lines:
        print("\n== acceptance (issue 36: against the sparring bot, level against level)")
        print("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per scenario")
    parser.add_argument("--games-for", action="append", default=[], metavar="SCENARIO=N")
    parser.add_argument(
        "--scenario", action="append", choices=(*SCENARIOS, *MOD_SCENARIOS), help="repeatable"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tides", action="store_true", help="play with Tides of Battle")
    parser.add_argument("--first", type=int, default=0, help="number of the first game played")
    parser.add_argument("--record", type=Path, help="append each finished game to this file")
    parser.add_argument(
        "--merge", type=Path, nargs="+", help="report the games recorded in these files instead"
    )
    args = parser.parse_args()
    if args.merge:
        try:
            summaries = records.load(args.merge)
        except (OSError, records.RecordError) as exc:
            parser.exit(2, f"cannot merge: {exc}\n")
        if not summaries:
            parser.exit(2, "cannot merge: no game is recorded in these files\n")
        chosen = sorted({g["scenario"] for g in summaries})
        print_results(chosen, summaries)
        parts = ", ".join(str(p) for p in args.merge)
        print(f"\n{len(summaries)} games merged from {parts} (code {summaries[0]['code']})")
        return
    chosen = with_sparring(parser, args.scenario or [*SCENARIOS, *MOD_SCENARIOS], args.scenario)
    counts = {s: args.games for s in chosen}
    for item in args.games_for:
        name, _, value = item.partition("=")
        counts[name] = int(value)
    jobs = [(s, g, args.tides) for s in chosen for g in range(args.first, args.first + counts[s])]
    # Long games (with a Hard seat) first: both cores stay busy.
    jobs.sort(key=lambda j: -("hard" in j[0] or j[0] == MIXED_SPARRING))
    code = records.code_digest(
        (*records.CODE, sparring_dir()) if set(chosen) & set(SPARRING_SCENARIOS) else records.CODE
    )
    kept = recorded(parser, args.record, code, args.tides)
    known = {(g["scenario"], g["game"]) for g in kept}
    jobs = [j for j in jobs if (j[0], j[1]) not in known]
    started = time.perf_counter()
    summaries = [g for g in kept if g["scenario"] in chosen]
    with ProcessPoolExecutor(args.workers) as pool:
        for done in as_completed([pool.submit(play, job) for job in jobs]):
            summary = {**done.result(), "code": code}
            if args.record is not None:
                records.append(args.record, summary)
            summaries.append(summary)
    elapsed = time.perf_counter() - started
    print_results(chosen, sorted(summaries, key=lambda g: (g["scenario"], g["game"])))
    before = f", {len(summaries) - len(jobs)} recorded before" if kept else ""
    print(f"\n{len(jobs)} games in {elapsed / 60:.1f} min on {args.workers} worker(s){before}")


def with_sparring(
    parser: argparse.ArgumentParser, chosen: list[str], asked: list[str] | None
) -> list[str]:
    """``chosen`` once the sparring bot is loaded if a scenario needs it. Where it does not
    load, scenarios asked for by name stop the run (status 2, the reason); a run of every
    scenario leaves the sparring ones out and says so."""
    needing = [s for s in chosen if s in SPARRING_SCENARIOS]
    if not needing:
        return chosen
    try:
        sparring_bot()
    except SparringMissing as exc:
        if asked:
            parser.exit(2, f"cannot play {', '.join(needing)}: {exc}\n")
        print(f"left out the sparring scenarios: {exc}", file=sys.stderr)
        return [s for s in chosen if s not in needing]
    return chosen


def recorded(
    parser: argparse.ArgumentParser, path: Path | None, code: str, tides: bool
) -> list[dict[str, Any]]:
    """The games already in the record file ``path``: a stopped run goes on where it stopped,
    with the same code and options only."""
    if path is None or not path.exists():
        return []
    try:
        kept = records.load([path])
    except (OSError, records.RecordError) as exc:
        parser.exit(2, f"cannot go on with {path}: {exc}\n")
    if kept and (kept[0]["code"], kept[0]["tides"]) != (code, tides):
        parser.exit(
            2,
            f"{path} was recorded by other code or options (code {kept[0]['code']}, tides "
            f"{kept[0]['tides']}; now code {code}, tides {tides}): record to a new file\n",
        )
    return kept


def print_results(chosen: Sequence[str], summaries: list[dict[str, Any]]) -> None:
    """The report of every scenario in ``chosen`` and the acceptance lines they cover."""
    results = {}
    for scenario in chosen:
        games = [g for g in summaries if g["scenario"] == scenario]
        results[scenario] = report(scenario, games)
        if scenario == "personalities":
            behaviour_report(games)
    easy = [t for r in results.values() if "easy" in r for t in r["easy"]["t"]]
    acceptance(results, easy)
    sparring_acceptance(results)


if __name__ == "__main__":
    main()
