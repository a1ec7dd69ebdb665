"""Shared fixtures: the real Ruleset built through the plugin manager, never a mock."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

# Tests never autoload installed or user-folder plugins (DESIGN §3); set before any ruleset.
os.environ.setdefault("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")

from westeros.engine.content import Ruleset
from westeros.plugins import build_ruleset


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` run first, the rest after them in their own order: with ``-n 2``
    the long browser and subprocess tests then share out over the workers from the start
    instead of leaving one worker running the last of them alone."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def rules() -> Ruleset:
    """The base game with ports (Tides of Battle present but off by default)."""
    return build_ruleset()


@pytest.fixture(scope="session")
def rules_no_ports() -> Ruleset:
    """The base game with the ports plugin disabled."""
    return build_ruleset(disable=["westeros_ports"])


@pytest.fixture(scope="module")
def tournament() -> Iterator[ModuleType]:
    """``benchmarks/ai_tournament.py`` as a module (its scenarios' seats and rules)."""
    benchmark = Path(__file__).resolve().parents[1] / "benchmarks" / "ai_tournament.py"
    sys.path.insert(0, str(benchmark.parent))  # its sibling module tournament_records
    spec = importlib.util.spec_from_file_location("ai_tournament", benchmark)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    sys.path.remove(str(benchmark.parent))


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """The one Playwright driver of this test process: a second ``sync_playwright`` started
    while one runs fails, so the UI and the online browser tests share this one."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")
    with sync_api.sync_playwright() as driver:
        yield driver


@pytest.fixture
def launch_chromium(playwright: Any) -> Iterator[Callable[[Path, Sequence[str]], Any]]:
    """Launch Chromium browsers (an executable, its arguments) for one test; every one is
    closed after the test, whatever happened in it."""
    launched: list[Any] = []

    def launch(executable: Path, args: Sequence[str]) -> Any:
        browser = playwright.chromium.launch(executable_path=str(executable), args=list(args))
        launched.append(browser)
        return browser

    yield launch
    for browser in launched:
        browser.close()


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
