"""Desktop start-up time (desktop issue): launch the real app window on a virtual screen and time
from process launch to the start screen shown, and to the board drawn after "New game" (median).

    python benchmarks/desktop_startup.py [--runs 5]

Needs Xvfb and PyQt6-WebEngine (pip install -e '.[test]'); runs tests/desktop/window_probe.py
through tests/desktop/harness.py.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.desktop.harness import ProbeFailed, finish, launch_probe, wait_ready  # noqa: E402


def one_run(display: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        launched = time.time()
        child, out = launch_probe("window_probe", display, Path(tmp))
        try:
            wait_ready(child, out, timeout=180)
            result = finish(child, out)
        except ProbeFailed as failed:
            child.kill()
            raise SystemExit(str(failed)) from failed
        return {
            "seconds_to_start": result["start_at"] - launched,
            "seconds_to_board": result["board_at"] - launched,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    display = ":97"
    xvfb = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1)
    try:
        runs = [one_run(display) for _ in range(args.runs)]
    finally:
        xvfb.terminate()
    start = [r["seconds_to_start"] for r in runs]
    board = [r["seconds_to_board"] for r in runs]
    print("launch to start screen (s): " + ", ".join(f"{x:.2f}" for x in start))
    print("launch to board after New game (s): " + ", ".join(f"{x:.2f}" for x in board))
    print(f"median launch to start screen: {statistics.median(start):.2f} s")
    print(f"median launch to board loaded: {statistics.median(board):.2f} s ({args.runs} runs)")


if __name__ == "__main__":
    main()
