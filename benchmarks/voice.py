"""Table voice for an 8-person table (issue 39 acceptance 5): eight people at an 8-player online
game (Mother of Dragons), each in a Chromium of their own with a 440 Hz tone as microphone,
join table voice (a full mesh: seven peer connections each). Over ``--seconds`` once every
connection is up, prints for each person their browser's CPU (seconds per wall second, the
browser and all its processes, from /proc) and the audio bitrate they send and receive
(kbit/s, summed over their peer connections, from ``window.westerosVoice.stats()``).
Prints figures; asserts nothing. Needs Chromium at /usr/bin/chromium and Playwright.

    python benchmarks/voice.py [--seconds 30]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")

from tests.online.seat_helpers import live_online  # noqa: E402
from tests.online.voice_browser import (  # noqa: E402
    CHROMIUM,
    connected,
    join_voice,
    seat_people,
    tone_file,
    voice_args,
)

HOUSES = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell", "arryn", "targaryen"]
TICKS = os.sysconf("SC_CLK_TCK")


def process_tree_cpu(marker: str) -> float:
    """CPU seconds used so far by the process whose command line holds ``marker`` and by
    every process under it (those alive now)."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    roots = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        cpu[pid] = (int(fields[11]) + int(fields[12])) / TICKS
        if marker.encode() in command:
            roots.append(pid)
    tree = set(roots)
    grown = True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        grown = bool(more)
        tree |= more
    return sum(cpu[pid] for pid in tree)


TOTALS = """async () => {
  let sent = 0, received = 0;
  for (const entry of await window.westerosVoice.stats()) {
    sent += entry.outbound?.bytesSent || 0;
    received += entry.inbound?.bytesReceived || 0;
  }
  return [sent, received, performance.now() / 1000];
}"""
"""Audio bytes a page has sent and received so far (all its peer connections), and when (the
page's clock, seconds): the page's own time, not the driver's, which may answer late."""


def sample(page: Any, tone: Path) -> tuple[float, float, list[float]]:
    """Now: the person's browser CPU seconds so far, this process's clock, and ``TOTALS``."""
    cpu, at = process_tree_cpu(str(tone)), time.monotonic()
    return cpu, at, page.evaluate(TOTALS)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    seconds = parser.parse_args().seconds
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as work, sync_playwright() as driver:
        tmp = Path(work)
        tones = [tone_file(tmp / f"tone-{house}.wav") for house in HOUSES]
        browsers = [
            driver.chromium.launch(executable_path=str(CHROMIUM), args=voice_args(tone))
            for tone in tones
        ]
        with live_online(tmp) as live:
            people = [(house.title(), house) for house in HOUSES]
            _, seated = seat_people(live, browsers, people, options={"mother_of_dragons": True})
            for person in seated:
                join_voice(person.page)
            for person in seated:
                connected(person.page, [h for h in HOUSES if h != person.house], timeout=180)
            print(
                f"8 people in table voice (full mesh); measuring {seconds:.0f} s", file=sys.stderr
            )
            first = [sample(p.page, tone) for p, tone in zip(seated, tones, strict=True)]
            time.sleep(seconds)
            last = [sample(p.page, tone) for p, tone in zip(seated, tones, strict=True)]
            print(f"{'house':<10} {'cpu/s':>6} {'sent kbit/s':>12} {'recv kbit/s':>12}")
            for person, (cpu0, at0, page0), (cpu1, at1, page1) in zip(
                seated, first, last, strict=True
            ):
                wall = page1[2] - page0[2]
                sent = (page1[0] - page0[0]) * 8 / 1000 / wall
                got = (page1[1] - page0[1]) * 8 / 1000 / wall
                cpu = (cpu1 - cpu0) / (at1 - at0)
                print(f"{person.house:<10} {cpu:>6.2f} {sent:>12.1f} {got:>12.1f}")
        for browser in browsers:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
