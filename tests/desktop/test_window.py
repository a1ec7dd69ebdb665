"""The desktop shell in a real window (desktop issue): under Xvfb with pywebview's Qt backend,
the window opens on the real local core, a new game shows the board, and a screenshot is saved
to artifacts/desktop-window.png."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .harness import ROOT, finish, launch_probe, wait_ready

ARTIFACTS = ROOT / "artifacts"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed (apt xvfb)"),
    pytest.mark.skipif(
        importlib.util.find_spec("PyQt6.QtWebEngineWidgets") is None,
        reason="PyQt6-WebEngine is not installed (pip install -e '.[test]')",
    ),
]


def test_window_opens_the_board_on_the_real_core(display: str, tmp_path: Path) -> None:
    child, out = launch_probe("window_probe", display, tmp_path)
    try:
        wait_ready(child, out)
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / "desktop-window.png"
        subprocess.run(
            ["import", "-window", "root", str(shot)],
            env={**os.environ, "DISPLAY": display},
            check=True,
            timeout=30,
        )
        result = finish(child, out)
    finally:
        if child.poll() is None:
            child.kill()
    assert result["start_page"], "the start screen did not show its new-game form"
    assert result["board"], "the board (the map with Winterfell) was not drawn"
    assert result["areas"] >= 50
    assert shot.stat().st_size > 10_000


def test_the_westeros_command_opens_its_window_on_the_start_screen_then_the_board(
    display: str, tmp_path: Path
) -> None:
    """Plain ``westeros`` (issue 37 point 5: the window opens while the core is built beside
    it): the start screen is shown in the window, and "New game" there draws the board."""
    child, out = launch_probe("app_probe", display, tmp_path)
    try:
        wait_ready(child, out)
        result = finish(child, out)
    finally:
        if child.poll() is None:
            child.kill()
    assert result["start_page"], "the start screen with its new-game form was not shown"
    assert result["board"], "the board (the map with Winterfell) was not drawn"
