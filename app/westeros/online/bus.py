"""What the workers of one server share besides the database (docs/online.md):

- fan-out: every accepted action and chat message is published for the game, and each
  worker delivers it to the sockets it holds (messages a worker sent itself are skipped);
- a per-game writer lock (a lease with a timeout, so a dead worker's lock runs out): exactly
  one worker appends a game's actions at a time;
- a per-game lease for the AI seats and the turn clock: one worker runs them, another takes
  over when that worker stops renewing it;
- presence: which seats have a socket open on some worker (entries expire with their worker);
- the serial of each game's last stored action (set by its writer under the writer lock), so
  that a replica knows without asking the database whether another worker wrote since.

``LocalBus`` is all of that inside one process (the embedded default); ``RedisBus`` uses
Redis (redis-py: pub/sub, ``Lock``, ``SET NX PX``, sorted sets)."""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Protocol

log = logging.getLogger("westeros.online.bus")

Handler = Callable[[str, dict[str, Any]], None]
LOCK_TIMEOUT = 10.0
LOCK_WAIT = 15.0
LOCK_POLL = 0.005
SEQ_TTL = 24 * 3600
PREFIX = "westeros"
# every game's lease (one key each) taken or renewed, in one call: 1 for each held
LEASE_SCRIPT = """
local held = {}
for i, key in ipairs(KEYS) do
  if redis.call('set', key, ARGV[1], 'nx', 'px', ARGV[2]) then
    held[i] = 1
  elseif redis.call('get', key) == ARGV[1] then
    redis.call('pexpire', key, ARGV[2])
    held[i] = 1
  else
    held[i] = 0
  end
end
return held
"""
# the writer lock taken, with the game's last stored serial, in one round trip
ACQUIRE_SCRIPT = """
if redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2]) then
  return {1, redis.call('get', KEYS[2])}
end
return {0}
"""
# the new serial recorded, the message published and the writer lock released, in one round trip
RELEASE_SCRIPT = """
if ARGV[2] ~= '' then redis.call('set', KEYS[2], ARGV[2], 'ex', ARGV[4]) end
if ARGV[3] ~= '' then redis.call('publish', KEYS[3], ARGV[3]) end
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('del', KEYS[1])
  return 1
end
return 0
"""


class BusError(RuntimeError):
    """The shared lock could not be taken in time (another worker holds it too long)."""


class Writing:
    """A game's writer lock while it is held: ``seq``, the serial of the game's last stored
    action when the lock was taken (None: the bus does not know), and the message to
    ``publish`` to the other workers, with its serial, as the lock is released."""

    def __init__(self, seq: int | None) -> None:
        self.seq = seq
        self.message: dict[str, Any] | None = None
        self.stored: int | None = None

    def publish(self, message: dict[str, Any], seq: int) -> None:
        """Publish ``message`` and record ``seq`` as the game's last stored action when the
        lock is released (before any other worker can take it)."""
        self.message, self.stored = message, seq


class Bus(Protocol):
    """What the hub needs from the bus (see module docstring)."""

    worker: str

    def publish(self, game: str, message: dict[str, Any], seq: int | None = None) -> None: ...

    def listen(self, handler: Handler) -> None: ...

    def lock(self, game: str) -> AbstractContextManager[Writing]: ...

    def leases(self, games: Iterable[str], ttl: float) -> set[str]: ...

    def seqs(self, games: Iterable[str]) -> dict[str, int]: ...

    def note_seq(self, game: str, seq: int) -> None: ...

    def set_present(self, seats: Mapping[str, str], ttl: float) -> None: ...

    def set_absent(self, seat: str, conn: str) -> None: ...

    def present(self, seats: Iterable[str]) -> set[str]: ...

    def close(self) -> None: ...


class LocalBus:
    """One process: nobody else to tell; locks and presence in memory."""

    def __init__(self) -> None:
        self.worker = uuid.uuid4().hex
        self._locks: defaultdict[str, threading.RLock] = defaultdict(threading.RLock)
        self._guard = threading.Lock()
        self._present: defaultdict[str, dict[str, float]] = defaultdict(dict)
        self._seqs: dict[str, int] = {}

    def publish(self, game: str, message: dict[str, Any], seq: int | None = None) -> None:
        """No other worker to reach; ``seq`` is the game's last stored action now."""
        if seq is not None:
            with self._guard:
                self._seqs[game] = seq

    def listen(self, handler: Handler) -> None:
        """No other worker sends anything."""

    @contextmanager
    def lock(self, game: str) -> Iterator[Writing]:
        """The game's writer lock (a thread lock here)."""
        with self._guard:
            lock = self._locks[game]
        with lock:
            writing = Writing(self.seqs([game]).get(game))
            yield writing
            if writing.message is not None and writing.stored is not None:
                self.publish(game, writing.message, seq=writing.stored)

    def leases(self, games: Iterable[str], ttl: float) -> set[str]:
        """This process always holds every game's lease."""
        return set(games)

    def seqs(self, games: Iterable[str]) -> dict[str, int]:
        """The serial of each game's last stored action, where known."""
        with self._guard:
            return {g: self._seqs[g] for g in games if g in self._seqs}

    def note_seq(self, game: str, seq: int) -> None:
        """A replica read ``game`` up to ``seq`` from the store (kept if nothing newer is)."""
        with self._guard:
            self._seqs.setdefault(game, seq)

    def set_present(self, seats: Mapping[str, str], ttl: float) -> None:
        """Each connection (key) is open for its seat (value) for ``ttl`` more seconds."""
        until = time.monotonic() + ttl
        with self._guard:
            for conn, seat in seats.items():
                self._present[seat][conn] = until

    def set_absent(self, seat: str, conn: str) -> None:
        """Connection ``conn`` of ``seat`` has closed."""
        with self._guard:
            self._present[seat].pop(conn, None)

    def present(self, seats: Iterable[str]) -> set[str]:
        """Those of ``seats`` that have an open connection."""
        now = time.monotonic()
        with self._guard:
            return {s for s in seats if any(t > now for t in self._present[s].values())}

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
        self._lease = self.redis.register_script(LEASE_SCRIPT)
        self._acquire = self.redis.register_script(ACQUIRE_SCRIPT)
        self._release = self.redis.register_script(RELEASE_SCRIPT)

    def _key(self, *parts: str) -> str:
        return ":".join((self.prefix, *parts))

    def publish(self, game: str, message: dict[str, Any], seq: int | None = None) -> None:
        """Send ``message`` about ``game`` to every other worker; with ``seq``, record it as
        the game's last stored action (in the same round trip)."""
        payload = json.dumps({"origin": self.worker, "game": game, "message": message})
        pipe = self.redis.pipeline(transaction=False)
        if seq is not None:
            pipe.set(self._key("seq", game), seq, ex=SEQ_TTL)
        pipe.publish(self._key("game", game), payload)
        pipe.execute()

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
    def lock(self, game: str) -> Iterator[Writing]:
        """The game's writer lock, a Redis lease of LOCK_TIMEOUT seconds (BusError when it
        cannot be had within LOCK_WAIT). Taking it reads the game's serial and releasing it
        publishes the message given to ``Writing.publish``, each in the same round trip."""
        token = uuid.uuid4().hex
        keys = [self._key("lock", game), self._key("seq", game)]
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            got = self._acquire(keys=keys, args=[token, int(LOCK_TIMEOUT * 1000)])
            if got[0]:
                break
            if time.monotonic() > deadline:
                raise BusError(f"game {game}: another worker holds the writer lock")
            time.sleep(LOCK_POLL)
        writing = Writing(int(got[1]) if got[1] is not None else None)
        published = False
        try:
            yield writing
            published = writing.message is not None and writing.stored is not None
        finally:
            payload = (
                json.dumps({"origin": self.worker, "game": game, "message": writing.message})
                if published
                else ""
            )
            released = self._release(
                keys=[*keys, self._key("game", game)],
                args=[token, str(writing.stored) if published else "", payload, SEQ_TTL],
            )
            if not released:
                log.warning("game %s: the writer lock had expired", game)

    def leases(self, games: Iterable[str], ttl: float) -> set[str]:
        """Take or renew each game's AI/clock lease for ``ttl`` seconds (one script call:
        a pipeline of one call per game cost a scan of 100 games more than the rest); the
        games whose lease this worker holds now."""
        games = list(games)
        if not games:
            return set()
        held = self._lease(
            keys=[self._key("lease", g) for g in games], args=[self.worker, int(ttl * 1000)]
        )
        return {g for g, one in zip(games, held, strict=True) if one}

    def seqs(self, games: Iterable[str]) -> dict[str, int]:
        """The serial of each game's last stored action, where Redis knows it."""
        games = list(games)
        if not games:
            return {}
        found = self.redis.mget([self._key("seq", g) for g in games])
        return {g: int(v) for g, v in zip(games, found, strict=True) if v is not None}

    def note_seq(self, game: str, seq: int) -> None:
        """A replica read ``game`` up to ``seq`` from the store (kept if nothing newer is)."""
        self.redis.set(self._key("seq", game), seq, ex=SEQ_TTL, nx=True)

    def set_present(self, seats: Mapping[str, str], ttl: float) -> None:
        """Each connection (key) is open for its seat (value) for ``ttl`` more seconds."""
        if not seats:
            return
        until = time.time() + ttl
        pipe = self.redis.pipeline(transaction=False)
        for conn, seat in seats.items():
            pipe.zadd(self._key("present", seat), {conn: until})
        pipe.execute()

    def set_absent(self, seat: str, conn: str) -> None:
        """Connection ``conn`` of ``seat`` has closed."""
        self.redis.zrem(self._key("present", seat), conn)

    def present(self, seats: Iterable[str]) -> set[str]:
        """Those of ``seats`` that have an open connection on some worker (one round trip)."""
        seats = list(seats)
        if not seats:
            return set()
        now = time.time()
        pipe = self.redis.pipeline(transaction=False)
        for seat in seats:
            pipe.zcount(self._key("present", seat), now, "+inf")
        return {s for s, n in zip(seats, pipe.execute(), strict=True) if n}

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
