"""Run inside a virtual screen by test_window.py: open the real desktop window on the real local
core, start a new game from the start screen, wait until the board is drawn, report as JSON."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import webview

from westeros.desktop import LocalCore

BOARD_READY = "!!document.querySelector('#area-winterfell') && document.readyState === 'complete'"


def wait_for(window: webview.Window, script: str, timeout: float = 60.0) -> bool:
    """Poll ``script`` with ``run_js`` (no eval: the pages' CSP allows none)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if window.run_js(script):
                return True
        except Exception:  # the page may be between loads
            pass
        time.sleep(0.2)
    return False


def probe(window: webview.Window, core: LocalCore, out: Path) -> None:
    result: dict[str, object] = {"url": core.url}
    result["start_page"] = wait_for(window, "!!document.querySelector('form')")
    result["start_at"] = time.time()
    window.run_js("document.querySelector('form').submit()")
    result["board"] = wait_for(window, BOARD_READY)
    result["board_at"] = time.time()
    result["title"] = window.run_js("document.title")
    result["areas"] = window.run_js("document.querySelectorAll('[data-area]').length")
    out.write_text(json.dumps(result), "utf-8")
    marker = out.with_suffix(".ready")
    marker.write_text("ready", "utf-8")
    deadline = time.monotonic() + 30
    while not out.with_suffix(".done").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    window.destroy()


def main() -> int:
    out = Path(sys.argv[1])
    core = LocalCore(store_url=sys.argv[2], ai_delay=0.0)
    core.start()
    window = webview.create_window("Westeros", core.url, width=1280, height=860)
    try:
        webview.start(probe, (window, core, out), gui="qt", private_mode=True)
    finally:
        core.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
