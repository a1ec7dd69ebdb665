"""The app's process ends once its window closed (desktop shell): a thread pywebview leaves
waiting for a window that is gone (its script bridge, when the window closes while a page
loads) does not keep it alive."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import sys, threading, types
from tests.desktop.test_shell import FakeWindow
from westeros import desktop

def create_window(title, url, **options):
    return FakeWindow(url)

def start(**options):  # the window closes at once, a thread of pywebview's still waits
    threading.Thread(target=threading.Event().wait, name="generate_js_object").start()

sys.modules["webview"] = types.SimpleNamespace(
    settings={}, create_window=create_window, start=start
)
desktop.window_problem = lambda: None
desktop.EXIT_GRACE_S = 0.5
sys.argv[1:] = []
from westeros.cli import main
sys.exit(main())
"""


def test_a_thread_left_waiting_by_the_window_does_not_keep_the_app_alive(
    tmp_path: Path,
) -> None:
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    ended = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**env, "WESTEROS_DATABASE_URL": f"sqlite:///{tmp_path / 'games.db'}"},
        capture_output=True,
        timeout=120,
    )
    assert ended.returncode == 0, ended.stderr.decode()[-2000:]
    log = (tmp_path / "state" / "westeros" / "log" / "westeros.log").read_text("utf-8")
    assert "a window thread still ran" in log
