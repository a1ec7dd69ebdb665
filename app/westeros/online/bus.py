"""What the workers of one server share besides the database (docs/online.md):

- fan-out: every accepted action and chat message is published for the game, and each
  worker delivers it to the sockets it holds (messages a worker sent itself are skipped);
- a per-game writer lock (a lease with a timeout, so a dead worker's lock runs out): exactly
  one worker appends a game's actions at a time;
- a per-game lease for the AI seats and the turn clock: one worker runs them, another takes
  over when that worker stops renewing it;
- presence: which seats have a socket open on some worker (entries expire with their worker).

``LocalBus`` is all of that inside one process (the embedded default); ``RedisBus`` uses
Redis (redis-py: pub/sub, ``Lock``, ``SET NX PX``, sorted sets)."""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

log = logging.getLogger("westeros.online.bus")

Handler = Callable[[str, dict[str, Any]], None]
LOCK_TIMEOUT = 10.0
LOCK_WAIT = 15.0
PREFIX = "westeros"


class BusError(RuntimeError):
    """The shared lock could not be taken in time (another worker holds it too long)."""


class Bus(Protocol):
    """What the hub needs from the bus (see module docstring)."""

    worker: str

    def publish(self, game: str, message: dict[str, Any]) -> None: ...

    def listen(self, handler: Handler) -> None: ...

    def lock(self, game: str) -> Any: ...

    def lease(self, game: str, ttl: float) -> bool: ...

    def set_present(self, seat: str, conn: str, ttl: float) -> None: ...

    def set_absent(self, seat: str, conn: str) -> None: ...

    def present(self, seat: str) -> bool: ...

    def close(self) -> None: ...


class LocalBus:
    """One process: nobody else to tell; locks and presence in memory."""

    def __init__(self) -> None:
        self.worker = uuid.uuid4().hex
        self._locks: defaultdict[str, threading.RLock] = defaultdict(threading.RLock)
        self._guard = threading.Lock()
        self._present: defaultdict[str, dict[str, float]] = defaultdict(dict)

    def publish(self, game: str, message: dict[str, Any]) -> None:
        """No other worker to reach."""

    def listen(self, handler: Handler) -> None:
        """No other worker sends anything."""

    @contextmanager
    def lock(self, game: str) -> Iterator[None]:
        """The game's writer lock (a thread lock here)."""
        with self._guard:
            lock = self._locks[game]
        with lock:
            yield

    def lease(self, game: str, ttl: float) -> bool:
        """This process always holds every game's lease."""
        return True

    def set_present(self, seat: str, conn: str, ttl: float) -> None:
        """Connection ``conn`` is open for ``seat`` for ``ttl`` more seconds."""
        with self._guard:
            self._present[seat][conn] = time.monotonic() + ttl

    def set_absent(self, seat: str, conn: str) -> None:
        """Connection ``conn`` of ``seat`` has closed."""
        with self._guard:
            self._present[seat].pop(conn, None)

    def present(self, seat: str) -> bool:
        """Has ``seat`` an open connection?"""
        now = time.monotonic()
        with self._guard:
            return any(until > now for until in self._present[seat].values())

    def close(self) -> None:
        """Nothing to close."""


class RedisBus:
    """Workers sharing one Redis (``url``, e.g. ``redis://127.0.0.1:6379/0``)."""

    def __init__(self, url: str, prefix: str = PREFIX) -> None:
        import redis

        self.worker = uuid.uuid4().hex
        self.prefix = prefix
        self.redis = redis.Redis.from_url(url)
        self.redis.ping()
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self._thread: Any = None
        self._handlers: list[Handler] = []

    def _key(self, *parts: str) -> str:
        return ":".join((self.prefix, *parts))

    def publish(self, game: str, message: dict[str, Any]) -> None:
        """Send ``message`` about ``game`` to every other worker."""
        payload = json.dumps({"origin": self.worker, "game": game, "message": message})
        self.redis.publish(self._key("game", game), payload)

    def listen(self, handler: Handler) -> None:
        """Call ``handler(game, message)`` (in the bus thread) for every message another
        worker publishes."""
        self._handlers.append(handler)
        if self._thread is not None:
            return

        def on_message(raw: dict[str, Any]) -> None:
            try:
                data = json.loads(raw["data"])
            except (ValueError, TypeError, KeyError):
                return
            if data.get("origin") == self.worker:
                return
            for handle in list(self._handlers):
                try:
                    handle(data["game"], data["message"])
                except Exception:
                    log.exception("bus handler failed")

        self._pubsub.psubscribe(**{self._key("game", "*"): on_message})
        self._thread = self._pubsub.run_in_thread(sleep_time=0.05, daemon=True)

    @contextmanager
    def lock(self, game: str) -> Iterator[None]:
        """The game's writer lock, a Redis lease of LOCK_TIMEOUT seconds (BusError when it
        cannot be had within LOCK_WAIT)."""
        lock = self.redis.lock(
            self._key("lock", game), timeout=LOCK_TIMEOUT, blocking_timeout=LOCK_WAIT
        )
        if not lock.acquire():
            raise BusError(f"game {game}: another worker holds the writer lock")
        try:
            yield
        finally:
            try:
                lock.release()
            except Exception:
                log.warning("game %s: the writer lock had expired", game)

    def lease(self, game: str, ttl: float) -> bool:
        """Take or renew the game's AI/clock lease for ``ttl`` seconds; True if this worker
        holds it now."""
        key = self._key("lease", game)
        ms = int(ttl * 1000)
        if self.redis.set(key, self.worker, nx=True, px=ms):
            return True
        holder = self.redis.get(key)
        if isinstance(holder, bytes):
            holder = holder.decode()
        if holder == self.worker:
            self.redis.pexpire(key, ms)
            return True
        return False

    def set_present(self, seat: str, conn: str, ttl: float) -> None:
        """Connection ``conn`` is open for ``seat`` for ``ttl`` more seconds."""
        self.redis.zadd(self._key("present", seat), {conn: time.time() + ttl})

    def set_absent(self, seat: str, conn: str) -> None:
        """Connection ``conn`` of ``seat`` has closed."""
        self.redis.zrem(self._key("present", seat), conn)

    def present(self, seat: str) -> bool:
        """Has ``seat`` an open connection on any worker?"""
        return bool(self.redis.zcount(self._key("present", seat), time.time(), "+inf"))

    def close(self) -> None:
        """Stop listening and close the connections."""
        if self._thread is not None:
            self._thread.stop()
            self._thread.join(2)
        self._pubsub.close()
        self.redis.close()


def make_bus(url: str | None, prefix: str = PREFIX) -> LocalBus | RedisBus:
    """A RedisBus for ``url`` (keys and channels under ``prefix``), or a LocalBus."""
    return RedisBus(url, prefix) if url else LocalBus()
