"""The desktop window's title follows the board (issue 13.7): under Xvfb with pywebview's Qt
backend, once the first decision waits the page title reads "● Your move — Westeros — board" and so
does the real X window's title (read with xwininfo, outside the app)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from .harness import finish, launch_probe, wait_ready

WAITING_TITLE = "● Your move — Westeros — board"
TITLE_TIMEOUT_S = 30.0  # the probe keeps its window open for 120 s

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed (apt xvfb)"),
    pytest.mark.skipif(shutil.which("xwininfo") is None, reason="xwininfo is not installed"),
    pytest.mark.skipif(
        importlib.util.find_spec("PyQt6.QtWebEngineWidgets") is None,
        reason="PyQt6-WebEngine is not installed (pip install -e '.[test]')",
    ),
]


def window_names(screen: str) -> str:
    """Every window's name on ``screen``, as xwininfo lists them."""
    listed = subprocess.run(
        ["xwininfo", "-root", "-tree"],
        env={**os.environ, "DISPLAY": screen},
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return listed.stdout


def test_the_window_title_says_a_decision_waits(display: str, tmp_path: Path) -> None:
    child, out = launch_probe("title_probe", display, tmp_path)
    try:
        wait_ready(child, out)
        names = window_names(display)
        deadline = time.monotonic() + TITLE_TIMEOUT_S
        while WAITING_TITLE not in names and time.monotonic() < deadline:
            time.sleep(0.2)
            names = window_names(display)
        result = finish(child, out)
    finally:
        if child.poll() is None:
            child.kill()
    assert result["board"], "the board was not drawn"
    assert result["page_title"] == WAITING_TITLE
    assert f'"{WAITING_TITLE}"' in names, names
