"""Desktop start-up time (issue 37 point 5): on a virtual screen, time from process launch to a
bare pywebview window showing a trivial page (the yardstick, same Qt backend) and, in the same
invocation, from launching the real ``westeros`` command to its start screen shown; print both
medians and their ratio (goal: at most 2x), and the board after "New game" for reference.

The app's runs share one user profile, as a player's launches do: the first launch (which
creates the database and compiles the pages) is printed on its own; the ratio is of the usual
launches after it.

    python benchmarks/desktop_startup.py [--runs 5]

Needs Xvfb and PyQt6-WebEngine (pip install -e '.[test]'); runs tests/desktop/bare_probe.py and
tests/desktop/app_probe.py, alternately, through tests/desktop/harness.py.
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

GOAL_RATIO = 2.0


def one_run(probe: str, display: str, profile: Path | None = None) -> dict[str, float]:
    """Seconds from launching ``probe`` to what it reports (``start_at``, ``board_at``), with
    its user folders and database in ``profile`` (default: a fresh one)."""
    with tempfile.TemporaryDirectory() as tmp:
        work = profile or Path(tmp)
        (work / "probe.ready").unlink(missing_ok=True)
        (work / "probe.done").unlink(missing_ok=True)
        launched = time.time()
        child, out = launch_probe(probe, display, work)
        try:
            wait_ready(child, out, timeout=180)
            result = finish(child, out)
        except ProbeFailed as failed:
            child.kill()
            raise SystemExit(f"{probe}: {failed}") from failed
        if not result["start_page"]:
            raise SystemExit(f"{probe}: the page was not shown")
        return {key: result[key] - launched for key in ("start_at", "board_at") if key in result}


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
    bare: list[float] = []
    app: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as profile:
        try:
            one_run("bare_probe", display)  # a first launch warms the disk cache for both
            first = one_run("app_probe", display, Path(profile))
            for _ in range(args.runs):
                bare.append(one_run("bare_probe", display)["start_at"])
                app.append(one_run("app_probe", display, Path(profile)))
        finally:
            xvfb.terminate()
    start = [r["start_at"] for r in app]
    board = [r["board_at"] for r in app]
    print("bare pywebview window, launch to page shown (s): " + ", ".join(f"{x:.2f}" for x in bare))
    print(f"westeros, first launch (new database) to start screen shown: {first['start_at']:.2f} s")
    print("westeros, launch to start screen shown (s): " + ", ".join(f"{x:.2f}" for x in start))
    print("westeros, launch to board after New game (s): " + ", ".join(f"{x:.2f}" for x in board))
    ratio = statistics.median(start) / statistics.median(bare)
    print(f"median bare pywebview window: {statistics.median(bare):.2f} s ({args.runs} runs)")
    print(f"median launch to start screen: {statistics.median(start):.2f} s")
    print(f"median launch to board loaded: {statistics.median(board):.2f} s")
    print(f"start screen / bare window: {ratio:.2f}x (goal <= {GOAL_RATIO:g}x)")


if __name__ == "__main__":
    main()
