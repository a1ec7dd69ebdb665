"""Run inside a virtual screen by test_window_title.py: open the real desktop window (with the
title bridge the app uses) on the real local core, start a new game and report, as JSON, the
page title once the first decision waits; then wait for the test to read the window's title."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import webview

from westeros.desktop import LocalCore
from westeros.window_title import follow_page_title

from .window_probe import BOARD_READY, wait_for

WAITING = "document.title.startsWith('●')"


def probe(window: webview.Window, out: Path) -> None:
    result: dict[str, object] = {"start_page": wait_for(window, "!!document.querySelector('form')")}
    window.run_js("document.querySelector('form').submit()")
    result["board"] = wait_for(window, BOARD_READY)
    result["waiting"] = wait_for(window, WAITING)
    result["page_title"] = window.run_js("document.title")
    out.write_text(json.dumps(result), "utf-8")
    out.with_suffix(".ready").write_text("ready", "utf-8")
    deadline = time.monotonic() + 120
    while not out.with_suffix(".done").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    window.destroy()


def main() -> int:
    out = Path(sys.argv[1])
    core = LocalCore(store_url=sys.argv[2], ai_delay=0.0)
    core.start()
    window = webview.create_window("Westeros", core.url, width=1280, height=860)
    assert window is not None
    follow_page_title(window)
    try:
        webview.start(probe, (window, out), gui="qt", private_mode=True)
    finally:
        core.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
