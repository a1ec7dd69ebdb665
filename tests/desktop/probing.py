"""What the window probes share, inside the probed process: polling the page and handing the
report over (harness.py reads it). Light on purpose: the start-up probes import it before the
app, so it imports nothing but the standard library."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import webview

BOARD_READY = "!!document.querySelector('#area-winterfell') && document.readyState === 'complete'"
SHOWN = "document.readyState === 'complete' && !!document.querySelector('#new-game')"
"""The start screen is shown: loaded with everything it links (styles, fonts, images), its
new-game form there."""
NEW_GAME = "document.querySelector('#new-game').submit()"
"""Start a new game with the start screen's defaults."""


def wait_for(
    window: webview.Window, script: str, timeout: float = 60.0, every: float = 0.2
) -> bool:
    """Poll ``script`` every ``every`` seconds with ``run_js`` (no eval: the pages' CSP allows
    none)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if window.run_js(script):
                return True
        except Exception:  # the page may be between loads
            pass
        time.sleep(every)
    return False


def hand_over(window: webview.Window, out: Path, result: dict[str, object], hold: float) -> None:
    """Write the report and its ready marker, keep the window open up to ``hold`` seconds until
    the caller writes the done marker, then close it."""
    out.write_text(json.dumps(result), "utf-8")
    out.with_suffix(".ready").write_text("ready", "utf-8")
    deadline = time.monotonic() + hold
    while not out.with_suffix(".done").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    window.destroy()
