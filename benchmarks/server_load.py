"""Online server load (issue 10): N concurrent games, each with six bot clients over real
WebSockets, against ``westeros server`` with 1 and 2 worker processes sharing PostgreSQL and
Redis. Prints, per (workers, N): p50/p99 action→broadcast latency (from a bot sending an
action until all six sockets of its game have the resulting view), actions, errors, the
server's CPU (``cpu/s``: seconds per wall second, all its processes; ``ms/act``: CPU ms per
action, robust to other load on the machine, unlike the latencies), the CPU ms per action of
the PostgreSQL backends it holds (``db ms/a``), its memory (RSS), and the bot driver's own
CPU (it runs on the same machine); then, per worker count, the largest N meeting p99 ≤ 100
ms. Prints figures; asserts nothing.

The driver is cheap: one asyncio process holds every socket (websockets), a bot wakes only
when its game's broadcast arrives or its think time ends, and the bots decide with the
baseline AI on the view they were sent in one separate process (so the measuring event loop
stays free); its garbage collector is off while it plays (``collector_paused``), as its
own pauses would stop every socket at once. One action is in flight per game. A bot thinks
for a time drawn from an exponential distribution of mean ``--think`` seconds (seeded per
seat), as people do not all answer after the same time; ``--fixed-think`` makes every bot
wait exactly ``--think``, so that every game acts in step with the others (a burst of N
actions at once). Each game begins at its own moment (drawn from a seeded generator) of the
``--stagger`` seconds after every socket is open (``STAGGER``; 0: all at once). Latencies
count from ``--warmup`` seconds after that (the server is still busy with the connections
before), and so does the CPU.

The games are set up once, on a fresh PostgreSQL schema (dropped afterwards), and played by
one server per worker count in turn (each with a fresh Redis prefix); a run adds the games it
needs. ``--search`` looks for the largest N per worker count (doubling from ``--start`` up
to ``--max``, then bisecting); it keeps within ``--budget`` seconds in all (a run that would
not end in time is not started, and the best N so far is printed as such). Progress goes to
stderr. Otherwise every N of ``--games`` is played on each worker count.

    python benchmarks/server_load.py [--games 5 10 20 40] [--workers 1 2] [--seconds 20]
        [--search --start 10 --max 200 --budget 570] [--think 0.5] [--fixed-think]
        [--stagger 30] [--warmup 5]
        [--database postgresql://postgres@127.0.0.1:5432/wt_online]
        [--redis redis://127.0.0.1:6379/3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import orjson

os.environ.setdefault("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")

TARGET_P99_MS = 100.0
HOUSES = 6
STAGGER = 30.0
"""Seconds over which the games begin (default ``--stagger``). Games begun in the same second
all plan their first round at once, six houses each: at N = 200 that asks the server for
some 400 actions a second for several seconds (four times what it does later), and their
rounds stay in step for minutes; a server's games begin at their own times."""
GRACE_SECONDS = 3600  # idle games' seats stay their bots' (no AI) between runs of a search
Seat = tuple[str, str, str]  # game id, house, player key


def _post(url: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    headers = {"content-type": "application/json", **({"x-westeros-key": key} if key else {})}
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=120) as reply:
        data: dict[str, Any] = json.loads(reply.read())
        return data


@functools.cache
def _rules() -> Any:
    from westeros.plugins import build_ruleset

    return build_ruleset({})


def _warm() -> None:
    _rules()


def _decide(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """A bot's answer, worked out from its view alone (in the bots' decision process)."""
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


def _usage(pids: list[int]) -> tuple[float, int]:
    """(CPU seconds, RSS bytes) of ``pids``."""
    ticks = os.sysconf("SC_CLK_TCK")
    cpu, rss = 0.0, 0
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / ticks
            rss += int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    return cpu, rss


@contextlib.contextmanager
def fresh_schema(database: str) -> Iterator[str]:
    """A new PostgreSQL schema in ``database`` (dropped afterwards): the URL that uses it."""
    import sqlalchemy as sa

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(database.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as db:
        db.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        joiner = "&" if "?" in database else "?"
        yield f"{database}{joiner}options={quote(f'-csearch_path={schema}')}"
    finally:
        with engine.begin() as db:
            db.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@contextlib.contextmanager
def migrated_schema(database: str) -> Iterator[str]:
    """A fresh schema with the store's tables (``fresh_schema``), migrated before any worker
    starts, whatever version of the server runs: the URL that uses it."""
    from westeros.store import db

    with fresh_schema(database) as url:
        engine = db.create_db_engine(url)
        db.migrate(engine)
        engine.dispose()
        yield url


@contextlib.contextmanager
def server(url: str, redis: str, workers: int, port: int) -> Iterator[int]:
    """``westeros server`` with ``workers`` workers on the database at ``url`` and a fresh
    Redis prefix; yields its pid."""
    env = {**os.environ, "WESTEROS_REDIS_PREFIX": f"bench-{uuid.uuid4().hex[:8]}"}
    command = [sys.executable, "-m", "westeros.cli", "server", "--port", str(port)]
    command += ["--workers", str(workers), "--database", url, "--redis", redis]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/lobbies", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.3)
        yield process.pid
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:  # its workers too, or they would keep the port
            for pid in _tree(process.pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            process.wait(30)


def setup_game(base: str, g: int) -> list[Seat]:
    """One started 6-player game, every seat a bot's: (game id, house, key) of each seat."""
    keys = [_post(f"{base}/api/players", {"name": f"bot{g}-{i}"})["key"] for i in range(6)]
    body = {"players": 6, "house": "stark", "grace_seconds": GRACE_SECONDS}
    created = _post(f"{base}/api/lobbies", body, keys[0])
    lobby = created["lobby"]["id"]
    seats = [("stark", keys[0])]
    for key, (house, link) in zip(keys[1:], created["invites"].items(), strict=True):
        _post(f"{base}/api/join", {"invite": link.split("=", 1)[1]}, key)
        _post(f"{base}/api/lobbies/{lobby}/ready", {"ready": True}, key)
        seats.append((house, key))
    game_id = _post(f"{base}/api/lobbies/{lobby}/start", {}, keys[0])["lobby"]["game_id"]
    return [(game_id, house, key) for house, key in seats]


class Game:
    """The six bots of one game and the action in flight: the serial it waits for, when it
    was sent, the houses whose sockets have not shown it yet."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.target = -1
        self.sent = 0.0
        self.missing: set[str] = set()
        self.counted = False  # sent after the warm-up
        self.start = 0.0  # seconds after every socket is open before its bots begin
        self.arrived = asyncio.Event()
        self.latencies: list[float] = []

    def seen(self, house: str, state_id: int) -> None:
        if state_id >= self.target and house in self.missing:
            self.missing.discard(house)
            if not self.missing:
                if self.counted:
                    self.latencies.append(time.perf_counter() - self.sent)
                self.arrived.set()


@dataclass(frozen=True)
class Pace:
    """How the bots play: ``think`` seconds (the mean, or exactly that when ``fixed``); each
    game begins at its own moment of the ``stagger`` seconds after every socket is open, and
    the ``warmup`` seconds after those are not measured either."""

    think: float
    fixed: bool = False
    warmup: float = 5.0
    stagger: float = 0.0


class Run:
    """What every bot of one run shares: the clock starts once every socket is open (and
    has its first view), so connecting is not measured, and latencies count from the end of
    the warm-up; the errors seen."""

    def __init__(self, sockets: int, seconds: float, pace: Pace) -> None:
        self.waiting = sockets
        self.seconds, self.pace = seconds, pace
        self.started = asyncio.Event()
        self.stop = self.counting = 0.0
        self.errors: list[str] = []
        self.opening = asyncio.Semaphore(32)

    def connected(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.counting = time.monotonic() + self.pace.stagger + self.pace.warmup
            self.stop = self.counting + self.seconds
            self.started.set()

    def thinking(self, rnd: random.Random) -> float:
        """A bot's think time before its next action."""
        pace = self.pace
        return pace.think if pace.fixed else rnd.expovariate(1 / pace.think)


async def bot(ws_base: str, seat: Seat, game: Game, pool: ProcessPoolExecutor, run: Run) -> None:
    from websockets.asyncio.client import ClientConnection, connect

    game_id, house, key = seat
    loop = asyncio.get_running_loop()
    rnd = random.Random(f"{game_id}/{house}")
    url = f"{ws_base}/ws/games/{game_id}/seats/{house}"
    try:
        async with run.opening:
            ws: ClientConnection = await connect(
                url, additional_headers={"x-westeros-key": key}, max_size=None, open_timeout=120
            )
            latest: dict[str, Any] = orjson.loads(await ws.recv())
    except Exception as exc:
        run.errors.append(f"{house} of {game_id} could not connect: {exc}")
        run.connected()
        return
    run.connected()
    await run.started.wait()
    await asyncio.sleep(game.start)
    fresh = asyncio.Event()
    fresh.set()
    answered = -1

    async def reader() -> None:
        nonlocal latest
        async for raw in ws:
            message = orjson.loads(raw)
            if message["type"] == "view":
                latest = message
                game.seen(house, message["state_id"])
                fresh.set()
            elif message["type"] == "error" and message.get("code") not in (
                "stale-state",
                "illegal/not-pending",
                "illegal/already-revealed",
            ):
                run.errors.append(message.get("message", "?"))

    task = asyncio.create_task(reader())
    try:
        while (left := run.stop - time.monotonic()) > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(fresh.wait(), left)
            fresh.clear()
            if latest["view"]["prompt"] is None:
                continue
            await asyncio.sleep(run.thinking(rnd))
            view, state_id = latest["view"], latest["state_id"]
            if view["prompt"] is None or state_id == answered or time.monotonic() > run.stop:
                continue
            answered = state_id
            action = await loop.run_in_executor(pool, _decide, view, state_id)
            async with game.lock:
                if latest["state_id"] != state_id:
                    fresh.set()
                    continue
                game.target, game.missing = state_id + 1, set(view["houses"])
                game.arrived.clear()
                game.sent = time.perf_counter()
                game.counted = time.monotonic() >= run.counting
                await ws.send(
                    json.dumps({"type": "action", "action": action, "state_id": state_id})
                )
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(game.arrived.wait(), 10)
                game.missing = set()
    finally:
        task.cancel()
        await ws.close()


def _backends(database: str) -> list[int]:
    """The pids of the PostgreSQL backends connected to ``database`` (the server's)."""
    import psycopg

    with psycopg.connect(database.split("?", 1)[0]) as db:
        rows = db.execute(
            "SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return [pid for (pid,) in rows]


@dataclass
class Measured:
    latencies: list[float]
    errors: list[str]
    connecting: float  # seconds until every socket had its first view
    wall: float
    server_cpu: float  # CPU seconds over ``wall``
    driver_cpu: float
    db_cpu: float


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """This driver's garbage collector off while it plays: one process holds every socket
    and the latest view of each, and its own collections (young ones of 50 to 170 ms every
    few seconds at 200 games, full ones of 0.4 s) stopped every socket at once, and were
    counted as the server's latency. What it drops is freed by reference counting; the few
    cycles (exceptions of timed-out waits) are collected once the run is over."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()


async def drive(
    ws_base: str,
    seats: list[list[Seat]],
    seconds: float,
    pace: Pace,
    server_pid: int,
    database: str,
) -> Measured:
    """Open every game's sockets, then run their bots for the warm-up and ``seconds``; CPU
    seconds of the server, of this driver (with its decision process) and of the PostgreSQL
    backends the server holds over those ``seconds`` (a backend opened meanwhile is not
    counted)."""
    games = [Game() for _ in seats]
    starts = random.Random(len(seats))
    for game in games:
        game.start = starts.uniform(0, pace.stagger)
    run = Run(sum(map(len, seats)), seconds, pace)
    with ProcessPoolExecutor(max_workers=1) as pool:
        pool.submit(_warm).result()  # warm up outside the measurement (and start it first)
        with collector_paused():
            opened = time.monotonic()
            bots = [
                asyncio.create_task(bot(ws_base, seat, game, pool, run))
                for game, game_seats in zip(games, seats, strict=True)
                for seat in game_seats
            ]
            await run.started.wait()
            connecting = time.monotonic() - opened
            await asyncio.sleep(pace.stagger + pace.warmup)
            server_pids, backends = _tree(server_pid), _backends(database)
            mine = [p for p in _tree(os.getpid()) if p not in server_pids]
            (server0, _), (own0, _) = _usage(server_pids), _usage(mine)
            db0 = {p: _usage([p])[0] for p in backends}
            t0 = time.monotonic()
            await asyncio.gather(*bots)
            wall = time.monotonic() - t0
            (server1, _), (own1, _) = _usage(server_pids), _usage(mine)
            db1 = {p: _usage([p])[0] for p in _backends(database)}
    latencies = [x for g in games for x in g.latencies]
    db = sum(db1[p] - db0[p] for p in db0 if p in db1)
    return Measured(latencies, run.errors, connecting, wall, server1 - server0, own1 - own0, db)


@dataclass
class Result:
    workers: int
    games: int
    latencies_ms: list[float]
    errors: list[str]
    measured: Measured
    rss: int

    @property
    def p50(self) -> float:
        return statistics.median(self.latencies_ms) if self.latencies_ms else float("nan")

    @property
    def p99(self) -> float:
        ms = self.latencies_ms
        return ms[min(len(ms) - 1, int(len(ms) * 0.99))] if ms else float("nan")

    @property
    def ok(self) -> bool:
        return bool(self.latencies_ms) and self.p99 <= TARGET_P99_MS and not self.errors

    def line(self) -> str:
        got, actions = self.measured, max(1, len(self.latencies_ms))
        return (
            f"{self.workers:>7} {self.games:>5} {self.games * HOUSES:>7} "
            f"{len(self.latencies_ms):>7} {self.p50:>7.1f} {self.p99:>7.1f} "
            f"{len(self.errors):>6} {got.server_cpu / got.wall:>6.2f} "
            f"{got.server_cpu * 1000 / actions:>7.2f} {got.db_cpu * 1000 / actions:>7.2f} "
            f"{self.rss / 2**20:>7.0f} {got.driver_cpu / got.wall:>6.2f}"
        )


HEADER = (
    f"{'workers':>7} {'games':>5} {'sockets':>7} {'actions':>7} {'p50 ms':>7} "
    f"{'p99 ms':>7} {'errors':>6} {'cpu/s':>6} {'ms/act':>7} {'db ms/a':>7} {'rss MB':>7} "
    f"{'bots/s':>6}"
)


class Progress:
    """Progress lines on stderr (the table stays alone on stdout), with the time elapsed."""

    def __init__(self) -> None:
        self.t0 = time.monotonic()

    def __call__(self, text: str) -> None:
        print(f"  [{time.monotonic() - self.t0:5.0f} s] {text}", file=sys.stderr, flush=True)


class Bench:
    """The games set up so far (on the database at ``url``, kept from one server to the
    next) and the server playing them now (``pid``, ``workers``)."""

    def __init__(self, url: str, args: argparse.Namespace, progress: Progress) -> None:
        self.url, self.args, self.progress = url, args, progress
        self.port, self.seconds = args.port, args.seconds
        self.pace = Pace(args.think, args.fixed_think, args.warmup, args.stagger)
        self.seats: list[list[Seat]] = []
        self.pid = self.workers = 0
        self.setup_each = 0.5  # seconds to set up one game, then as measured
        self.open_each = 0.02  # seconds to open one socket, then as measured

    @contextlib.contextmanager
    def serving(self, workers: int) -> Iterator[None]:
        """A server of ``workers`` workers for the games of this bench."""
        self.progress(f"starting a server of {workers} worker(s)")
        with server(self.url, self.args.redis, workers, self.port) as pid:
            self.pid, self.workers = pid, workers
            yield

    def estimate(self, n: int) -> float:
        """About how long ``run(n)`` takes, in seconds."""
        more = max(0, n - len(self.seats))
        opening = n * HOUSES * self.open_each
        pace = self.pace
        return more * self.setup_each + opening + pace.stagger + pace.warmup + self.seconds + 5

    def run(self, n: int) -> Result:
        base = f"http://127.0.0.1:{self.port}"
        more = range(len(self.seats), n)
        if more:
            self.progress(f"setting up {len(more)} more game(s)")
            t0 = time.monotonic()
            with ThreadPoolExecutor(max_workers=8) as setup:
                self.seats += setup.map(functools.partial(setup_game, base), more)
            self.setup_each = (time.monotonic() - t0) / len(more)
        self.progress(f"{self.workers} worker(s), N = {n}: {n * HOUSES} sockets")
        ws_base = f"ws://127.0.0.1:{self.port}"
        got = asyncio.run(
            drive(ws_base, self.seats[:n], self.seconds, self.pace, self.pid, self.args.database)
        )
        self.open_each = got.connecting / (n * HOUSES)
        _, rss = _usage(_tree(self.pid))
        ms = sorted(x * 1000 for x in got.latencies)
        result = Result(self.workers, n, ms, got.errors, got, rss)
        print(result.line(), flush=True)
        return result


def search(bench: Bench, start: int, most: int, deadline: float) -> tuple[int | None, bool]:
    """The largest N meeting the target: doubling from ``start`` to ``most``, then
    bisecting until the step is under a tenth of N; and whether the search ended before
    ``deadline`` (a run that would end after it is not started: the best N so far is
    returned)."""
    good: int | None = None
    bad: int | None = None

    def meets(n: int) -> bool | None:
        if time.monotonic() + bench.estimate(n) > deadline:
            bench.progress(f"no time left for N = {n} within the budget")
            return None
        return bench.run(n).ok

    n = start
    while good is None or bad is None:
        ok = meets(n)
        if ok is None:
            return good, False
        if ok:
            good = n
            if n >= most:
                return good, True
            n = min(most, n * 2)
        else:
            bad = n
            if good is None:
                if n <= 1:
                    return None, True
                n = max(1, n // 2)
    while bad - good > max(1, good // 10):
        n = (good + bad) // 2
        ok = meets(n)
        if ok is None:
            return good, False
        good, bad = (n, bad) if ok else (good, n)
    return good, True


def _more_open_files() -> None:
    """N = 200 holds 1,200 sockets here and as many in the server, more than the usual soft
    limit of 1,024 open files: raise it to the hard limit (the server inherits it)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 65536 if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[5, 10, 20, 40])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.5, help="mean think time (seconds)")
    parser.add_argument(
        "--fixed-think", action="store_true", help="every bot thinks exactly --think seconds"
    )
    parser.add_argument(
        "--stagger",
        type=float,
        default=STAGGER,
        help=f"seconds over which the games begin, not measured (default {STAGGER:.0f})",
    )
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds not measured")
    parser.add_argument("--search", action="store_true", help="find the largest N per workers")
    parser.add_argument("--start", type=int, default=10)
    parser.add_argument("--max", type=int, default=200)
    parser.add_argument(
        "--budget", type=float, default=570.0, help="seconds for the whole search (default 570)"
    )
    parser.add_argument("--database", default="postgresql://postgres@127.0.0.1:5432/wt_online")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/3")
    parser.add_argument("--port", type=int, default=8790)
    args = parser.parse_args()
    _more_open_files()
    progress = Progress()
    spread = "exactly" if args.fixed_think else "mean"
    print(
        f"think {spread} {args.think} s, games begin over {args.stagger:.0f} s, "
        f"{args.warmup:.0f} s warm-up, "
        f"{args.seconds:.0f} s per run, {os.cpu_count()} cores"
    )
    print(HEADER, flush=True)
    best: dict[int, tuple[int | None, bool]] = {}
    with migrated_schema(args.database) as url:
        bench = Bench(url, args, progress)
        for i, workers in enumerate(args.workers):
            with bench.serving(workers):
                if args.search:
                    share = (args.budget - (time.monotonic() - progress.t0)) / (
                        len(args.workers) - i
                    )
                    best[workers] = search(bench, args.start, args.max, time.monotonic() + share)
                    continue
                found, failed = None, False
                for n in sorted(args.games):
                    failed = not bench.run(n).ok or failed
                    found = found if failed else n
                best[workers] = found, True
    for workers, (n, finished) in best.items():
        print(
            f"largest N with p99 <= {TARGET_P99_MS:.0f} ms on {workers} worker(s): "
            f"{n if n is not None else 'none of those tried'}"
            f"{'' if finished else ' (the time budget ended the search)'}"
        )


if __name__ == "__main__":
    main()
