"""A long tournament scenario played in parts (``--first``, ``--record``) and reported as one
(``--merge``) gives the figures of one run of all its games; parts that do not belong together
are refused with the file, the line and the reason, and nothing is printed as a result."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
TOURNAMENT = BENCHMARKS / "ai_tournament.py"
SCENARIO = "standard-vs-baseline"


def tournament(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(TOURNAMENT), "--scenario", SCENARIO, "--workers", "1", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def figures(output: str) -> list[str]:
    """The report's lines that hold results (not the timings, which differ run to run)."""
    keep = ("win rate per", "wins by house", "mean rounds", "illegal actions", "[met]", "[NOT")
    return [line for line in output.splitlines() if any(k in line for k in keep)]


def with_other_code(source: Path, copy: Path) -> Path:
    """``copy`` holds the games of ``source`` as if another version of the code played them."""
    games = [json.loads(line) for line in source.read_text().splitlines()]
    copy.write_text("".join(json.dumps({**g, "code": "0" * 16}) + "\n" for g in games))
    return copy


@pytest.fixture(scope="module")
def parts(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    folder = tmp_path_factory.mktemp("records")
    first, second = folder / "first.jsonl", folder / "second.jsonl"
    assert tournament("--games", "2", "--record", str(first)).returncode == 0
    assert tournament("--games", "2", "--first", "2", "--record", str(second)).returncode == 0
    whole = tournament("--games", "4")
    assert whole.returncode == 0, whole.stderr
    return first, second, whole.stdout


def test_merged_parts_report_the_figures_of_one_run(parts: tuple[Path, Path, str]) -> None:
    first, second, whole = parts
    assert [json.loads(line)["game"] for line in first.read_text().splitlines()] in (
        [0, 1],
        [1, 0],
    )
    merged = tournament("--merge", str(first), str(second))
    assert merged.returncode == 0, merged.stderr
    assert figures(merged.stdout) == figures(whole)
    assert "/4)" in merged.stdout
    assert "4 games merged from" in merged.stdout


def test_a_stopped_run_goes_on_with_the_games_not_recorded_yet(
    parts: tuple[Path, Path, str], tmp_path: Path
) -> None:
    first, _, whole = parts
    going_on = tmp_path / "going-on.jsonl"
    going_on.write_text(first.read_text())
    rest = tournament("--games", "4", "--record", str(going_on))
    assert rest.returncode == 0, rest.stderr
    assert "\n2 games in" in rest.stdout and "2 recorded before" in rest.stdout
    assert figures(rest.stdout) == figures(whole)
    assert sorted(json.loads(line)["game"] for line in going_on.read_text().splitlines()) == [
        0,
        1,
        2,
        3,
    ]


def test_a_record_of_other_code_is_not_gone_on_with(
    parts: tuple[Path, Path, str], tmp_path: Path
) -> None:
    first, _, _ = parts
    other = with_other_code(first, tmp_path / "other.jsonl")
    refused = tournament("--games", "4", "--record", str(other))
    assert refused.returncode == 2
    assert "was recorded by other code or options" in refused.stderr
    assert len(other.read_text().splitlines()) == 2


def test_a_game_recorded_twice_is_refused(parts: tuple[Path, Path, str]) -> None:
    first, _, _ = parts
    refused = tournament("--merge", str(first), str(first))
    assert refused.returncode == 2
    assert "repeats game" in refused.stderr and "line 1" in refused.stderr
    assert "win rate" not in refused.stdout


def test_parts_played_by_other_code_are_refused(
    parts: tuple[Path, Path, str], tmp_path: Path
) -> None:
    first, second, _ = parts
    other = with_other_code(second, tmp_path / "other.jsonl")
    refused = tournament("--merge", str(first), str(other))
    assert refused.returncode == 2
    assert f"{other}, line 1 was played by other code" in refused.stderr


def test_a_record_cut_short_is_named(parts: tuple[Path, Path, str], tmp_path: Path) -> None:
    first, _, _ = parts
    cut = tmp_path / "cut.jsonl"
    text = first.read_text()
    cut.write_text(text[: len(text) - 40])
    refused = tournament("--merge", str(cut))
    assert refused.returncode == 2
    assert f"{cut}, line 2 is not a complete game record" in refused.stderr


def test_files_without_a_game_are_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    refused = tournament("--merge", str(empty))
    assert refused.returncode == 2
    assert "no game is recorded" in refused.stderr
