"""Online server load (issue 10): N concurrent games, each with six bot clients over real
WebSockets, against ``westeros server`` with 1 and 2 worker processes sharing PostgreSQL and
Redis. Prints, per (workers, N): p50/p99 action→broadcast latency (from a bot sending an
action until all six sockets of its game have the resulting view), actions, errors, server
CPU (seconds per wall second, all its processes) and memory (RSS), and per worker count the
largest N meeting p99 ≤ 100 ms. Prints figures; asserts nothing.

Bots decide with the baseline AI on the view they were sent (in a separate process, so the
measuring event loop stays free), one action in flight per game, after ``--think`` seconds.

    python benchmarks/server_load.py [--games 5 10 20 40] [--workers 1 2] [--seconds 20]
        [--database postgresql://postgres@127.0.0.1:5432/wt_online]
        [--redis redis://127.0.0.1:6379/7] [--think 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
import uuid
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

os.environ.setdefault("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")

TARGET_P99_MS = 100.0
HOUSES = 6


def _post(url: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    headers = {"content-type": "application/json", **({"x-westeros-key": key} if key else {})}
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=60) as reply:
        data: dict[str, Any] = json.loads(reply.read())
        return data


@functools.cache
def _rules() -> Any:
    from westeros.plugins import build_ruleset

    return build_ruleset({})


def _decide(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """A bot's answer, worked out from its view alone (in the bots' process pool)."""
    from westeros.ai import BaselineBot

    return BaselineBot(seed=seed).decide(view, _rules(), 0.05).to_json()


def _tree(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def _usage(pid: int) -> tuple[float, int]:
    """(CPU seconds, RSS bytes) of ``pid`` and its descendants."""
    ticks = os.sysconf("SC_CLK_TCK")
    cpu, rss = 0.0, 0
    for p in _tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / ticks
            rss += int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    return cpu, rss


def start_server(database: str, redis: str, workers: int, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "WESTEROS_REDIS_PREFIX": f"bench-{uuid.uuid4().hex[:8]}"}
    command = [sys.executable, "-m", "westeros.cli", "server", "--port", str(port)]
    command += ["--workers", str(workers), "--database", database, "--redis", redis]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/lobbies", timeout=2)
            return process
        except OSError:
            time.sleep(0.3)
    process.kill()
    raise SystemExit("the server did not start")


def setup_games(base: str, games: int) -> list[list[tuple[str, str, str]]]:
    """``games`` started 6-player games: per game (game id, house, key) of each seat."""
    out = []
    for g in range(games):
        keys = [_post(f"{base}/api/players", {"name": f"bot{g}-{i}"})["key"] for i in range(6)]
        created = _post(f"{base}/api/lobbies", {"players": 6, "house": "stark"}, keys[0])
        lobby = created["lobby"]["id"]
        seats = [("stark", keys[0])]
        for key, (house, link) in zip(keys[1:], created["invites"].items(), strict=True):
            _post(f"{base}/api/join", {"invite": link.split("=", 1)[1]}, key)
            _post(f"{base}/api/lobbies/{lobby}/ready", {"ready": True}, key)
            seats.append((house, key))
        game_id = _post(f"{base}/api/lobbies/{lobby}/start", {}, keys[0])["lobby"]["game_id"]
        out.append([(game_id, house, key) for house, key in seats])
    return out


class Game:
    """The six bots of one game and the action in flight."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.waiting: dict[int, tuple[float, set[str]]] = {}
        self.latencies: list[float] = []


async def bot(
    ws_base: str,
    seat: tuple[str, str, str],
    game: Game,
    pool: ProcessPoolExecutor,
    think: float,
    stop: float,
    errors: list[str],
) -> None:
    from websockets.asyncio.client import connect

    game_id, house, key = seat
    loop = asyncio.get_running_loop()
    url = f"{ws_base}/ws/games/{game_id}/seats/{house}"
    async with connect(url, additional_headers={"x-westeros-key": key}, max_size=None) as ws:
        latest: dict[str, Any] = json.loads(await ws.recv())
        answered = -1

        async def reader() -> None:
            nonlocal latest
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "view":
                    latest = message
                    for target, (sent, missing) in list(game.waiting.items()):
                        if message["state_id"] >= target:
                            missing.discard(house)
                            if not missing:
                                game.latencies.append(time.perf_counter() - sent)
                                del game.waiting[target]
                elif message["type"] == "error" and message.get("error") not in (
                    "StaleState",
                    "NotPending",
                ):
                    errors.append(message.get("message", "?"))

        task = asyncio.create_task(reader())
        try:
            while time.monotonic() < stop:
                await asyncio.sleep(think)
                view, state_id = latest["view"], latest["state_id"]
                if view["prompt"] is None or state_id == answered:
                    continue
                answered = state_id
                action = await loop.run_in_executor(pool, _decide, view, state_id)
                async with game.lock:
                    if latest["state_id"] != state_id:
                        continue
                    houses = set(view["houses"])
                    game.waiting[state_id + 1] = (time.perf_counter(), houses)
                    await ws.send(
                        json.dumps({"type": "action", "action": action, "state_id": state_id})
                    )
                    deadline = time.monotonic() + 10
                    while state_id + 1 in game.waiting and time.monotonic() < deadline:
                        await asyncio.sleep(0.005)
                    game.waiting.pop(state_id + 1, None)
        finally:
            task.cancel()


async def drive(
    ws_base: str, seats: list[list[tuple[str, str, str]]], seconds: float, think: float
) -> tuple[list[float], list[str]]:
    games = [Game() for _ in seats]
    errors: list[str] = []
    stop = time.monotonic() + seconds
    with ProcessPoolExecutor(max_workers=1) as pool:
        await asyncio.gather(
            *(
                bot(ws_base, seat, game, pool, think, stop, errors)
                for game, game_seats in zip(games, seats, strict=True)
                for seat in game_seats
            ),
            return_exceptions=False,
        )
    return [x for g in games for x in g.latencies], errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[5, 10, 20, 40])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--database", default="postgresql://postgres@127.0.0.1:5432/wt_online")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/7")
    parser.add_argument("--port", type=int, default=8790)
    args = parser.parse_args()
    print(
        f"{'workers':>7} {'games':>5} {'sockets':>7} {'actions':>7} {'p50 ms':>7} "
        f"{'p99 ms':>7} {'errors':>6} {'cpu/s':>6} {'rss MB':>7}"
    )
    best: dict[int, int | None] = {}
    for workers in args.workers:
        best[workers] = None
        for n in args.games:
            process = start_server(args.database, args.redis, workers, args.port)
            try:
                base = f"http://127.0.0.1:{args.port}"
                seats = setup_games(base, n)
                cpu0, _ = _usage(process.pid)
                t0 = time.monotonic()
                latencies, errors = asyncio.run(
                    drive(f"ws://127.0.0.1:{args.port}", seats, args.seconds, args.think)
                )
                cpu1, rss = _usage(process.pid)
                wall = time.monotonic() - t0
            finally:
                process.terminate()
                process.wait(30)
            ms = sorted(x * 1000 for x in latencies)
            p50 = statistics.median(ms) if ms else float("nan")
            p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))] if ms else float("nan")
            print(
                f"{workers:>7} {n:>5} {n * HOUSES:>7} {len(ms):>7} {p50:>7.1f} {p99:>7.1f} "
                f"{len(errors):>6} {(cpu1 - cpu0) / wall:>6.2f} {rss / 2**20:>7.0f}",
                flush=True,
            )
            if ms and p99 <= TARGET_P99_MS and not errors:
                best[workers] = n
            else:
                break
    for workers, n in best.items():
        print(
            f"largest N with p99 <= {TARGET_P99_MS:.0f} ms on {workers} worker(s): "
            f"{n if n is not None else 'none of those tried'}"
        )


if __name__ == "__main__":
    main()
