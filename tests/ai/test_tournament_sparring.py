"""Issue 36 point 1: the tournament measures our levels against the sparring bot written outside
the team, imported from ``../shared/sparring`` (or ``$WESTEROS_SPARRING_DIR``), never copied in.
The tiny tournaments here play the levels that do not search (Standard, the baseline AI), so
the time budget does not enter; where the sparring folder is absent they skip and say why."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
TOURNAMENT = REPO / "benchmarks" / "ai_tournament.py"
SPARRING_DIR = Path(os.environ.get("WESTEROS_SPARRING_DIR") or REPO.parent / "shared" / "sparring")
PRESENT = (SPARRING_DIR / "sparring_bot.py").is_file()
needs_sparring = pytest.mark.skipif(
    not PRESENT,
    reason=f"the sparring bot is not at {SPARRING_DIR} (set WESTEROS_SPARRING_DIR to its folder)",
)
WILSON_OF_TWO = {0: "[ 0.0%, 65.8%]", 1: "[ 9.5%, 90.5%]", 2: "[34.2%, 100.0%]"}
"""95% Wilson intervals of 0, 1 and 2 wins in 2 games (z = 1.96), worked out by hand."""
LEVELS = ("easy", "baseline", "standard", "normal", "hard")
Played = tuple[str, list[dict[str, Any]], Path]
"""A tiny tournament's report, its recorded games and the record file."""


def run_tournament(*args: str, sparring: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["WESTEROS_SPARRING_DIR"] = str(sparring or SPARRING_DIR)
    return subprocess.run(
        [sys.executable, str(TOURNAMENT), "--workers", "1", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """Two games each of a lone Standard against five sparring bots and of a lone sparring bot
    against five baseline AIs: the report and the recorded games."""
    if not PRESENT:
        pytest.skip(f"the sparring bot is not at {SPARRING_DIR}")
    record = tmp_path_factory.mktemp("sparring") / "games.jsonl"
    run = run_tournament(
        "--scenario",
        "standard-vs-sparring",
        "--scenario",
        "sparring-vs-baseline",
        "--games",
        "2",
        "--record",
        str(record),
    )
    assert run.returncode == 0, run.stderr
    return run.stdout, [json.loads(line) for line in record.read_text().splitlines()], record


def section(report: str, scenario: str) -> str:
    """The report's block of one scenario."""
    start = report.index(f"== {scenario}: 2 games")
    end = report.find("\n== ", start + 1)
    return report[start:end]


def lone_line(block: str, name: str) -> str:
    return next(line for line in block.splitlines() if re.match(rf"\s+{name}\s+win rate", line))


@needs_sparring
@pytest.mark.parametrize(
    ("scenario", "lone", "field"),
    [
        ("standard-vs-sparring", "standard", "sparring"),
        ("sparring-vs-baseline", "sparring", "baseline"),
    ],
)
def test_a_sparring_scenario_seats_one_lone_player_against_five_and_rotates_it(
    played: Played, scenario: str, lone: str, field: str
) -> None:
    """Issue 36 point 1: every game of the scenario has the lone player in one seat and five of
    the other kind in the rest, the lone player's house moving from game to game."""
    games = [g for g in played[1] if g["scenario"] == scenario]
    assert sorted(g["game"] for g in games) == [0, 1]
    houses = []
    for g in games:
        assert Counter(g["seats"].values()) == {lone: 1, field: 5}
        houses += [h for h, name in g["seats"].items() if name == lone]
    assert len(set(houses)) == 2


@needs_sparring
@pytest.mark.parametrize(
    ("scenario", "lone", "field"),
    [
        ("standard-vs-sparring", "standard", "sparring"),
        ("sparring-vs-baseline", "sparring", "baseline"),
    ],
)
def test_a_sparring_scenario_prints_win_rates_with_wilson_intervals_and_per_house(
    played: Played, scenario: str, lone: str, field: str
) -> None:
    """Issue 36 point 1 (acceptance 1): the lone player's and the field's wins as the recorded
    games have them, the lone player's with its 95% Wilson interval and house by house."""
    report, games, _ = played
    games = [g for g in games if g["scenario"] == scenario]
    block = section(report, scenario)
    wins = sum(g["seats"].get(g["winner"]) == lone for g in games)
    field_wins = sum(g["seats"].get(g["winner"]) == field for g in games)
    line = lone_line(block, lone)
    assert f"{WILSON_OF_TWO[wins]} ({wins}/2)" in line, line
    assert f"({field_wins}/10)" in lone_line(block, field)
    per_house = next(line for line in block.splitlines() if "win rate per house:" in line)
    for g in games:
        house = next(h for h, name in g["seats"].items() if name == lone)
        assert f"{house} {100 if g['winner'] == house else 0}% ({int(g['winner'] == house)}/1)" in (
            per_house
        )
    assert "illegal actions or player errors: 0" in block


@needs_sparring
def test_standard_vs_sparring_prints_its_fair_share_goal(
    played: Played,
) -> None:
    """Issue 36 acceptance 1: "Standard vs five sparring bots (goal >= 16.7%)" is printed as met
    exactly when the lone Standard won at least a sixth of its games."""
    report, games, _ = played
    wins = sum(g["seats"].get(g["winner"]) == "standard" for g in games)
    verdict = "[met]" if wins >= 1 else "[NOT MET]"
    expected = f"{verdict} 36.1 Standard vs 5 sparring: "
    goal = next(line for line in report.splitlines() if "36.1 Standard vs 5 sparring" in line)
    assert goal.strip().startswith(expected) and f"({wins}/2); target >= 16.7%" in goal, goal


@needs_sparring
def test_recorded_sparring_games_are_reported_without_the_sparring_folder(
    played: Played, tmp_path: Path
) -> None:
    """Issue 36 point 1: ``--merge`` of recorded sparring games prints their figures where the
    sparring folder is absent: reporting needs no outside code."""
    report, _, record = played
    merged = run_tournament("--merge", str(record), sparring=tmp_path / "absent")
    assert merged.returncode == 0, merged.stderr
    for scenario in ("standard-vs-sparring", "sparring-vs-baseline"):
        assert figures(section(merged.stdout, scenario)) == figures(section(report, scenario))
    assert figures(merged.stdout.split("== acceptance")[-1]) == figures(
        report.split("== acceptance")[-1]
    )


def figures(text: str) -> list[str]:
    """The lines that hold results (not the timings, which differ run to run)."""
    keep = ("win rate per", "wins by house", "illegal actions", "[met]", "[NOT MET]")
    return [line for line in text.splitlines() if any(k in line for k in keep)]


def test_a_missing_sparring_folder_stops_a_sparring_scenario_with_where_it_looked(
    tmp_path: Path,
) -> None:
    """Issue 36 point 1: without the sparring folder, asking for a sparring scenario exits with
    status 2, names the file it looked for and how to point at it, and prints no figures."""
    absent = tmp_path / "no-sparring-here"
    run = run_tournament("--scenario", "hard-vs-sparring", "--games", "1", sparring=absent)
    assert run.returncode == 2
    assert "cannot play hard-vs-sparring" in run.stderr
    assert str(absent / "sparring_bot.py") in run.stderr
    assert "WESTEROS_SPARRING_DIR" in run.stderr
    assert "win rate" not in run.stdout


def test_a_sparring_bot_that_fails_to_load_is_named_with_its_error(tmp_path: Path) -> None:
    """Issue 36 point 1 (a broken outside bot): a sparring_bot.py whose import raises stops the
    run with status 2, the file and the error it raised."""
    injected = "RuntimeError('injected: the sparring bot breaks on import')"
    print(f"injected into {tmp_path / 'sparring_bot.py'}: raise {injected}")
    (tmp_path / "sparring_bot.py").write_text(f"raise {injected}\n")
    run = run_tournament("--scenario", "sparring-vs-standard", "--games", "1", sparring=tmp_path)
    assert run.returncode == 2
    assert f"{tmp_path / 'sparring_bot.py'} does not load" in run.stderr
    assert "injected: the sparring bot breaks on import" in run.stderr
    assert "win rate" not in run.stdout


def test_a_sparring_bot_without_the_class_is_named(tmp_path: Path) -> None:
    """Issue 36 point 1 (a broken outside bot): a sparring_bot.py without ``SparringBot`` stops
    the run with status 2 and says what is missing."""
    print(f"injected into {tmp_path / 'sparring_bot.py'}: a module without SparringBot")
    (tmp_path / "sparring_bot.py").write_text("class SomethingElse:\n    pass\n")
    run = run_tournament("--scenario", "sparring-vs-standard", "--games", "1", sparring=tmp_path)
    assert run.returncode == 2
    assert "SparringBot" in run.stderr and "does not load" in run.stderr


def test_other_scenarios_play_without_the_sparring_folder(tmp_path: Path) -> None:
    """Issue 36 point 1: the scenarios that do not use the sparring bot still play where its
    folder is absent."""
    run = run_tournament(
        "--scenario", "standard-vs-baseline", "--games", "1", sparring=tmp_path / "absent"
    )
    assert run.returncode == 0, run.stderr
    assert "== standard-vs-baseline: 1 games" in run.stdout
    assert re.search(r"standard\s+win rate per seat .*\(\d/1\)", run.stdout)


def test_a_run_of_every_scenario_leaves_the_sparring_ones_out_and_says_so(
    tournament: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """Issue 36 point 1: a run of all scenarios where the sparring folder is absent plays all
    the others and says on stderr why the sparring ones are left out."""
    monkeypatch.setenv("WESTEROS_SPARRING_DIR", str(tmp_path / "absent"))
    monkeypatch.setattr(tournament, "_SPARRING", [])
    every = [*tournament.SCENARIOS, *tournament.MOD_SCENARIOS]
    kept = tournament.with_sparring(argparse.ArgumentParser(), every, None)
    assert "standard-vs-baseline" in kept and "hard-vs-field" in kept
    assert not [s for s in kept if "sparring" in s]
    # each level, rules, lite and hard-learned, both ways round, and mixed-sparring
    assert len(every) - len(kept) == 2 * (len(LEVELS) + 3) + 1
    assert "left out the sparring scenarios" in capsys.readouterr().err


def test_mixed_sparring_seats_one_of_each_level_and_one_sparring_bot(
    tournament: ModuleType,
) -> None:
    """Issue 36 point 1 (mixed tables): every mixed-sparring game has one seat of each level
    and one sparring bot."""
    for game in range(240):
        assert sorted(tournament.mixed_kinds(game)) == sorted([*LEVELS, "sparring"])


def test_mixed_sparring_rotates_every_player_round_the_table_every_six_games(
    tournament: ModuleType,
) -> None:
    """Issue 36 point 1 (mixed tables): in every block of six games every player sits once at
    every seat, so even a short run gives each level every house."""
    for block in range(40):
        tables = [tournament.mixed_kinds(block * 6 + k) for k in range(6)]
        for seat in range(6):
            assert sorted(t[seat] for t in tables) == sorted([*LEVELS, "sparring"]), (block, seat)


def test_mixed_sparring_meets_every_player_in_every_pair_of_houses_equally_often(
    tournament: ModuleType,
) -> None:
    """Issue 36 point 1 (mixed tables): over 120 games, while one player holds a seat every
    other player holds every other seat 4 times, so a level's figure for a house is not the
    figure of one fixed set of neighbours."""
    met = Counter(
        (kinds[a], a, kinds[b], b)
        for kinds in (tournament.mixed_kinds(game) for game in range(120))
        for a in range(6)
        for b in range(6)
        if a != b
    )
    assert len(met) == 6 * 6 * 5 * 5
    assert set(met.values()) == {4}


def stats(wins: int, seats: int, won: dict[str, int] | None = None) -> dict[str, Any]:
    """A player's figures in the shape ``seat_stats`` gives, houses seated equally."""
    won = won or {}
    houses = ("baratheon", "greyjoy", "lannister", "martell", "stark", "tyrell")
    return {
        "wins": wins,
        "seats": seats,
        "house": Counter({h: seats // 6 for h in houses}),
        "won": Counter(won),
        "t": [],
    }


def goals(module: ModuleType, results: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> str:
    module.sparring_acceptance(results)
    return capsys.readouterr().out


def test_hard_vs_sparring_goal_lines_mark_the_rate_and_the_worst_house(
    tournament: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 36 acceptance 1 and point 4: Hard vs five sparring bots >= 50% and no house below
    25%; 150 of 300 meets the first, a house with 12 of 50 misses the second, and the worst
    house is named."""
    won = {
        "baratheon": 30,
        "greyjoy": 40,
        "lannister": 12,
        "martell": 20,
        "stark": 25,
        "tyrell": 23,
    }
    out = goals(tournament, {"hard-vs-sparring": {"hard": stats(150, 300, won)}}, capsys)
    assert "[met] 36.1 Hard vs 5 sparring:  50.0% [44.4%, 55.6%] (150/300); target >= 50%" in out
    assert "[NOT MET] 36.1 ... worst house lannister 24.0% (12/50); target >= 25%" in out
    out = goals(tournament, {"hard-vs-sparring": {"hard": stats(149, 300, won)}}, capsys)
    assert "[NOT MET] 36.1 Hard vs 5 sparring:" in out


@pytest.mark.parametrize(("wins", "verdict"), [(15, "[met]"), (16, "[NOT MET]")])
def test_lone_sparring_vs_hard_goal_is_at_most_five_percent(
    tournament: ModuleType, capsys: pytest.CaptureFixture[str], wins: int, verdict: str
) -> None:
    """Issue 36 acceptance 1: a lone sparring bot vs five Hard <= 5% (15 of 300 is on the line)."""
    results = {"sparring-vs-hard": {"sparring": stats(wins, 300), "hard": stats(0, 1500)}}
    assert f"{verdict} 36.1 lone sparring vs 5 Hard:" in goals(tournament, results, capsys)


@pytest.mark.parametrize(("wins", "verdict"), [(50, "[met]"), (49, "[NOT MET]")])
def test_standard_vs_sparring_goal_is_the_fair_share(
    tournament: ModuleType, capsys: pytest.CaptureFixture[str], wins: int, verdict: str
) -> None:
    """Issue 36 acceptance 1: Standard vs five sparring bots >= 16.7% (50 of 300 is a sixth)."""
    results = {"standard-vs-sparring": {"standard": stats(wins, 300)}}
    assert f"{verdict} 36.1 Standard vs 5 sparring:" in goals(tournament, results, capsys)


@pytest.mark.parametrize(
    ("normal", "verdict", "shown"),
    [(60, "[met]", "20.0%"), (45, "[NOT MET]", "15.0%"), (160, "[NOT MET]", "53.3%")],
)
def test_normal_is_placed_between_standard_and_hard_against_the_sparring_bot(
    tournament: ModuleType,
    capsys: pytest.CaptureFixture[str],
    normal: int,
    verdict: str,
    shown: str,
) -> None:
    """Issue 36 acceptance 1: Normal vs five sparring bots between Standard (50/300) and Hard
    (150/300); printed only when all three scenarios were run."""
    results: dict[str, Any] = {
        "standard-vs-sparring": {"standard": stats(50, 300)},
        "hard-vs-sparring": {"hard": stats(150, 300)},
    }
    assert "Normal vs 5 sparring" not in goals(tournament, results, capsys)
    results["normal-vs-sparring"] = {"normal": stats(normal, 300)}
    line = f"{verdict} 36.1 Normal vs 5 sparring {shown}, between Standard 16.7% and Hard 50.0%"
    assert line in goals(tournament, results, capsys)


def test_each_level_against_five_of_the_level_below_must_beat_its_fair_share(
    tournament: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 36 acceptance 1: each level vs five of the level below it, above its fair share:
    exactly a sixth is not above it."""
    results = {
        "standard-vs-baseline": {"standard": stats(51, 300)},
        "normal-vs-standard": {"normal": stats(50, 300)},
        "hard-vs-normal": {"hard": stats(66, 300)},
    }
    out = goals(tournament, results, capsys)
    assert "[met] 36.1 standard vs 5 baseline:" in out
    assert "[NOT MET] 36.1 normal vs 5 standard:" in out
    assert "[met] 36.1 hard vs 5 normal:" in out


def test_mixed_sparring_goal_asks_the_levels_in_strict_order(
    tournament: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 36 point 3: in mixed-sparring the levels' win rates rise strictly from Easy to
    Hard; one pair out of order (Normal below Standard) misses it."""
    ordered = {"easy": 5, "baseline": 10, "standard": 20, "normal": 30, "hard": 40, "sparring": 15}
    mixed = {name: stats(w, 120) for name, w in ordered.items()}
    out = goals(tournament, {"mixed-sparring": mixed}, capsys)
    assert "[met] 36.3 mixed-sparring, the levels head to head: easy 4.2% < baseline 8.3% <" in out
    mixed["normal"] = stats(19, 120)
    assert "[NOT MET] 36.3 mixed-sparring" in goals(tournament, {"mixed-sparring": mixed}, capsys)
