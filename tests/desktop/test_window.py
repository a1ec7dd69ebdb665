"""The desktop shell in a real window (desktop issue): under Xvfb with pywebview's Qt backend,
the window opens on the real local core, a new game shows the board, and a screenshot is saved
to artifacts/desktop-window.png."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
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
    out = tmp_path / "probe.json"
    env = {
        **os.environ,
        "DISPLAY": display,
        "QT_QPA_PLATFORM": "xcb",
        "QTWEBENGINE_DISABLE_SANDBOX": "1",
        "QTWEBENGINE_CHROMIUM_FLAGS": "--disable-gpu --no-sandbox",
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    child = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).with_name("window_probe.py")),
            str(out),
            f"sqlite:///{tmp_path / 'games.db'}",
        ],
        env=env,
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 120
        while not out.with_suffix(".ready").exists():
            assert child.poll() is None, "the desktop app exited before the board loaded"
            assert time.monotonic() < deadline, "the board did not load within 120 s"
            time.sleep(0.2)
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / "desktop-window.png"
        subprocess.run(
            ["import", "-window", "root", str(shot)],
            env={**os.environ, "DISPLAY": display},
            check=True,
            timeout=30,
        )
        out.with_suffix(".done").write_text("done", "utf-8")
        assert child.wait(60) == 0
    finally:
        if child.poll() is None:
            child.kill()
    result = json.loads(out.read_text("utf-8"))
    assert result["start_page"], "the start screen did not show its new-game form"
    assert result["board"], "the board (the map with Winterfell) was not drawn"
    assert result["areas"] >= 50
    assert shot.stat().st_size > 10_000
