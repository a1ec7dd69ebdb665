"""Game isolation (issue 14, Why 3): how promptly one game's socket answers while another game's
work blocks. Game A gets ``--slow`` sockets whose hint hook blocks until released; meanwhile game
B's socket sends ``--pings`` pings one after another. Prints B's ping round trips (median, p99,
max) with A blocked and, for comparison, with A idle. Prints figures; asserts nothing.

    python benchmarks/game_isolation.py [--slow 8] [--pings 200]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")

from fastapi.testclient import TestClient

from westeros.ai import RandomBot
from westeros.engine import Action, State, pending, random_action
from westeros.server import create_app
from westeros.server.security import token_cookie

TOKEN = "benchmark-launch-token-0123456789"
PORT = 8799
BASE = f"http://127.0.0.1:{PORT}"


def round_trips(ws: Any, count: int) -> list[float]:
    """Milliseconds of ``count`` ping round trips on ``ws``."""
    out = []
    for n in range(count):
        start = time.perf_counter()
        ws.send_json({"type": "ping", "id": n})
        while ws.receive_json().get("in_reply_to") != n:
            pass
        out.append((time.perf_counter() - start) * 1000)
    return out


def summary(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{label:<28} median {statistics.median(ordered):7.2f} ms   p99 {p99:7.2f} ms   "
        f"max {ordered[-1]:7.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--slow", type=int, default=8, help="blocked sockets of game A")
    parser.add_argument("--pings", type=int, default=200, help="pings of game B")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            token=TOKEN,
            store_url=f"sqlite:///{Path(folder) / 'bench.db'}",
            port=PORT,
            ai_factory=lambda house, seat: RandomBot(seed=1),
        )
        with TestClient(app, base_url=BASE) as client, contextlib.ExitStack() as stack:
            client.cookies.set(token_cookie(PORT), TOKEN)
            games = app.state.games
            slow = games.create(players=3, human="stark", seed=1, start_ai=False)
            fast = games.create(players=3, human="stark", seed=2, start_ai=False)
            release = threading.Event()

            def blocking_hint(state: State, house: str, action: Action) -> dict[str, Any]:
                release.wait(120)
                return {}

            slow.hint_maker = blocking_hint
            url = f"ws://127.0.0.1:{PORT}/ws/games/{{}}/seats/stark"
            b = stack.enter_context(client.websocket_connect(url.format(fast.game_id)))
            b.receive_json()
            idle = round_trips(b, args.pings)
            sockets = [
                stack.enter_context(client.websocket_connect(url.format(slow.game_id)))
                for _ in range(args.slow)
            ]
            for ws in sockets:
                ws.receive_json()
            assert "stark" in pending(slow.state)
            draft = random_action(slow.state, "stark", random.Random(0)).to_json()
            for ws in sockets:
                ws.send_json({"type": "hint", "action": draft})
            try:
                blocked = round_trips(b, args.pings)
            finally:
                release.set()
            for ws in sockets:
                ws.receive_json()
    print(f"game B pings ({args.pings} each), game A with {args.slow} sockets blocked in a hook:")
    print(summary("A idle", idle))
    print(summary("A blocked", blocked))


if __name__ == "__main__":
    main()
