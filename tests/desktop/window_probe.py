"""Run inside a virtual screen by test_window.py (through harness.py): open the real desktop
window on the real local core, start a new game from the start screen, wait until the board is
drawn, report as JSON."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import webview

from westeros.desktop import LocalCore

from .probing import BOARD_READY, NEW_GAME, SHOWN, hand_over, wait_for

Probe = Callable[[webview.Window, LocalCore, Path], None]


def probe(window: webview.Window, core: LocalCore, out: Path) -> None:
    result: dict[str, object] = {"url": core.url}
    result["start_page"] = wait_for(window, SHOWN)
    result["start_at"] = time.time()
    window.run_js(NEW_GAME)
    result["board"] = wait_for(window, BOARD_READY)
    result["board_at"] = time.time()
    result["title"] = window.run_js("document.title")
    result["areas"] = window.run_js("document.querySelectorAll('[data-area]').length")
    hand_over(window, out, result, hold=30)


def run_window(run: Probe, prepare: Callable[[webview.Window], None] | None = None) -> int:
    """Open the app window on a local core with the store URL in ``argv[2]`` and run ``run`` in
    it, reporting to ``argv[1]``; ``prepare`` sees the window before it is shown."""
    out = Path(sys.argv[1])
    core = LocalCore(store_url=sys.argv[2], ai_delay=0.0)
    core.start()
    window = webview.create_window("Westeros", core.url, width=1280, height=860)
    assert window is not None
    if prepare is not None:
        prepare(window)
    try:
        webview.start(run, (window, core, out), gui="qt", private_mode=True)
    finally:
        core.stop()
    return 0


if __name__ == "__main__":
    sys.exit(run_window(probe))
