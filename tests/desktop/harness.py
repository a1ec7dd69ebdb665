"""Starting a desktop-window probe (``tests/desktop/*_probe.py``) on a virtual screen and reading
its report, for the real-window tests and ``benchmarks/desktop_startup.py``.

A probe writes its JSON report to ``OUT``, then ``OUT.ready``; it keeps the window open until the
caller writes ``OUT.done``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class ProbeFailed(RuntimeError):
    """The desktop app exited, or did not reach the board in time."""


def launch_probe(module: str, display: str, work: Path) -> tuple[subprocess.Popen[bytes], Path]:
    """Start ``python -m tests.desktop.<module>`` on ``display``, with its store and user folders
    in ``work``; return the child and the path of its report."""
    out = work / "probe.json"
    env = {
        **os.environ,
        "DISPLAY": display,
        "QT_QPA_PLATFORM": "xcb",
        "QTWEBENGINE_DISABLE_SANDBOX": "1",
        "QTWEBENGINE_CHROMIUM_FLAGS": "--disable-gpu --no-sandbox",
        "XDG_DATA_HOME": str(work / "data"),
        "XDG_STATE_HOME": str(work / "state"),
        "XDG_CACHE_HOME": str(work / "cache"),
    }
    command = [sys.executable, "-m", f"tests.desktop.{module}", str(out)]
    child = subprocess.Popen([*command, f"sqlite:///{work / 'games.db'}"], env=env, cwd=ROOT)
    return child, out


def wait_ready(child: subprocess.Popen[bytes], out: Path, timeout: float = 120.0) -> None:
    """Wait until the probe has drawn the board and written its report."""
    deadline = time.monotonic() + timeout
    while not out.with_suffix(".ready").exists():
        if child.poll() is not None:
            raise ProbeFailed("the desktop app exited before the board loaded")
        if time.monotonic() > deadline:
            raise ProbeFailed(f"the board did not load within {timeout:.0f} s")
        time.sleep(0.05)


def finish(child: subprocess.Popen[bytes], out: Path) -> dict[str, Any]:
    """Let the probe close its window; return its report once the app has exited cleanly."""
    out.with_suffix(".done").write_text("done", "utf-8")
    if child.wait(60) != 0:
        raise ProbeFailed(f"the desktop app exited with {child.returncode}")
    report: dict[str, Any] = json.loads(out.read_text("utf-8"))
    return report
