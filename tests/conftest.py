"""Shared fixtures: the real Ruleset built through the plugin manager, never a mock."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Tests never autoload installed or user-folder plugins (DESIGN §3); set before any ruleset.
os.environ.setdefault("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")

from westeros.engine.content import Ruleset
from westeros.plugins import build_ruleset


@pytest.fixture(scope="session")
def rules() -> Ruleset:
    """The base game with ports (Tides of Battle present but off by default)."""
    return build_ruleset()


@pytest.fixture(scope="session")
def rules_no_ports() -> Ruleset:
    """The base game with the ports plugin disabled."""
    return build_ruleset(disable=["westeros_ports"])


EVIDENCE = ("tests/packaging/", "tests/desktop/", "tests/ui/")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """List the outcome of every packaging, desktop-window and browser test, and the screenshots
    they saved, so that a CI log shows them by name."""
    lines = []
    for outcome in ("passed", "failed", "error", "skipped"):
        for report in terminalreporter.stats.get(outcome, []):
            nodeid = getattr(report, "nodeid", "")
            if nodeid.startswith(EVIDENCE) and (report.when == "call" or outcome != "passed"):
                reason = ""
                if outcome == "skipped" and isinstance(report.longrepr, tuple):
                    reason = f" ({report.longrepr[2]})"
                lines.append(f"{outcome.upper():8} {nodeid}{reason}")
    if not lines:
        return
    terminalreporter.section("packaging, desktop window and browser checks")
    for line in sorted(set(lines)):
        terminalreporter.line(line)
    for shot in sorted(ARTIFACTS.glob("*.png")):
        terminalreporter.line(f"screenshot saved: {shot} ({shot.stat().st_size:,} bytes)")
