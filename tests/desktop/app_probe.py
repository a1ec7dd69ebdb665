"""Run inside a virtual screen by ``benchmarks/desktop_startup.py`` (through harness.py): the
real ``westeros`` command without arguments (the desktop window, on the database of ``argv[2]``),
watched from a thread that reports, as JSON, when the start screen is shown and when the board
is drawn after "New game". Nothing but the standard library is imported before the app."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import Any


def the_window() -> Any:
    """The app's pywebview window, once the app has made it."""
    while True:
        webview = sys.modules.get("webview")
        windows = getattr(webview, "windows", None)
        if windows:
            return windows[0]
        time.sleep(0.01)


def watch(out: Path) -> None:
    from .probing import BOARD_READY, NEW_GAME, SHOWN, hand_over, wait_for

    window = the_window()
    result: dict[str, object] = {"start_page": wait_for(window, SHOWN, every=0.02)}
    result["start_at"] = time.time()
    window.run_js(NEW_GAME)
    result["board"] = wait_for(window, BOARD_READY)
    result["board_at"] = time.time()
    hand_over(window, out, result, hold=30)


def main() -> int:
    os.environ["WESTEROS_DATABASE_URL"] = sys.argv[2]
    threading.Thread(target=watch, args=(Path(sys.argv[1]),), daemon=True).start()
    from westeros.cli import main as westeros

    return westeros([])


if __name__ == "__main__":
    sys.exit(main())
