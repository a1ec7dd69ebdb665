"""Run inside a virtual screen by ``benchmarks/desktop_startup.py`` (through harness.py): the
yardstick of start-up time, a bare pywebview window (Qt backend, as the app's) on a trivial page
with nothing of Westeros imported; reports as JSON when the page is shown."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import webview

from .probing import SHOWN, hand_over, wait_for

PAGE = "<!doctype html><title>Bare</title><form id=new-game></form>"


def probe(window: webview.Window, out: Path) -> None:
    shown = wait_for(window, SHOWN, every=0.02)
    hand_over(window, out, {"start_page": shown, "start_at": time.time()}, hold=30)


def main() -> int:
    out = Path(sys.argv[1])
    window = webview.create_window("Bare", html=PAGE, width=1280, height=860)
    webview.start(probe, (window, out), gui="qt", private_mode=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
