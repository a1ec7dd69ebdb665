"""Run inside a virtual screen by test_window_title.py (through harness.py): open the real
desktop window (with the title bridge the app uses) on the real local core, start a new game and
report, as JSON, the page title once the first decision waits; then wait for the test to read the
window's title."""

from __future__ import annotations

import sys
from pathlib import Path

import webview

from westeros.desktop import LocalCore
from westeros.window_title import follow_page_title

from .probing import BOARD_READY, NEW_GAME, SHOWN, hand_over, wait_for
from .window_probe import run_window

WAITING = "document.title.startsWith('●')"


def probe(window: webview.Window, core: LocalCore, out: Path) -> None:
    result: dict[str, object] = {"start_page": wait_for(window, SHOWN)}
    window.run_js(NEW_GAME)
    result["board"] = wait_for(window, BOARD_READY)
    result["waiting"] = wait_for(window, WAITING)
    result["page_title"] = window.run_js("document.title")
    hand_over(window, out, result, hold=120)


if __name__ == "__main__":
    sys.exit(run_window(probe, follow_page_title))
