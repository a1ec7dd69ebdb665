"""Snapshot resume in a fresh process (issue 11, acceptance 4): a new process that loads a
stored game starts from its latest snapshot (no "skipped" warning, only the actions after
it replayed) and reaches the live game's state."""

from __future__ import annotations

from pathlib import Path

from .fresh_resume import probe, record_game


def test_a_fresh_process_resumes_from_the_latest_snapshot(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'westeros.db'}"
    live = record_game(url, rounds=3, players=4)
    report = probe(url, live["id"])
    assert report["warnings"] == []
    assert report["hash"] == live["hash"]
    assert report["resumed_from"] > 0
    assert report["replayed"] == live["actions"] - report["resumed_from"]
    assert report["replayed"] < live["actions"] / 2  # only this round's actions
