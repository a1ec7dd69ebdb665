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
Redis (redis-py: pub/sub, ``Lock``, ``SET NX PX``, sorted sets, a capped stream).

Losing Redis (a restart, a dropped link; docs/online.md, "Faults the server survives"): the
listener thread logs one line, retries with backoff, subscribes again and reads from the
capped stream ``recent`` every message published since the last one it saw (each is
published with its stream id), so a worker that came back after the others misses nothing
they published meanwhile; then it calls the ``on_reconnect`` hooks (the games' replicas catch
up from the database). A restart quick enough for redis-py to connect the subscription again
by itself, within its own retries, counts as an outage too (``_connected_again``). While
Redis is unreachable the bus keeps what it should publish in a bounded outbox and sends it
once Redis answers, presence and leases read as empty (nobody runs a game's AI or clock
until they are taken again), and the writer lock refuses at once with ``BusError`` (the
action is not taken; the player may send it again)."""

from __future__ import annotations

import collections
import inspect
import json
import logging
import random
import threading
import time
import uuid
import weakref
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Protocol

log = logging.getLogger("westeros.online.bus")

Handler = Callable[[str, dict[str, Any]], None]
Hook = Callable[[], None]
LOCK_TIMEOUT = 10.0
LOCK_WAIT = 15.0
LOCK_POLL = 0.005
SEQ_TTL = 24 * 3600
PREFIX = "westeros"
RECENT = 5000
"""Messages the stream ``recent`` keeps (about) for a worker that subscribes again."""
OUTBOX = 2000
"""Messages a worker keeps while Redis is unreachable (the oldest go first)."""
BACKOFF_FIRST = 0.1
BACKOFF_MAX = 2.0
"""Seconds between two attempts to reach Redis again: doubled each time, up to this."""
LISTEN_POLL = 1.0
SOCKET_TIMEOUT = 5.0
CONNECT_TIMEOUT = 2.0
HEALTH_CHECK = 10
"""Seconds of silence after which the listener's connection is checked with a PING."""
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
# the new serial recorded, the message kept in the stream and published with its stream id,
# and the writer lock released, in one round trip
RELEASE_SCRIPT = """
if ARGV[2] ~= '' then redis.call('set', KEYS[2], ARGV[2], 'ex', ARGV[4]) end
if ARGV[3] ~= '' then
  local id = redis.call('xadd', KEYS[4], 'maxlen', '~', ARGV[5], '*', 'm', ARGV[3])
  redis.call('publish', KEYS[3], id .. ' ' .. ARGV[3])
end
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('del', KEYS[1])
  return 1
end
return 0
"""
# a message kept in the stream and published with its stream id; with a serial, the game's
# last stored action raised to it (never lowered: an outbox may send an older one late)
PUBLISH_SCRIPT = """
local id = redis.call('xadd', KEYS[1], 'maxlen', '~', ARGV[3], '*', 'm', ARGV[1])
redis.call('publish', KEYS[2], id .. ' ' .. ARGV[1])
if ARGV[2] ~= '' then
  local stored = tonumber(redis.call('get', KEYS[3]))
  if not stored or stored < tonumber(ARGV[2]) then
    redis.call('set', KEYS[3], ARGV[2], 'ex', ARGV[4])
  end
end
return id
"""

StreamId = tuple[int, int]


def stream_id(raw: bytes | str) -> StreamId:
    """A Redis stream id (``ms-seq``) as a pair that sorts as the stream does."""
    text = raw.decode() if isinstance(raw, bytes) else raw
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


class BusError(RuntimeError):
    """The shared lock could not be taken: another worker holds it too long, or Redis is
    unreachable. Nothing was done; the caller may try again."""


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

    def on_reconnect(self, hook: Hook) -> None: ...

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

    def on_reconnect(self, hook: Hook) -> None:
        """Nothing to lose, so nothing to reconnect to."""

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


class _Kept:
    """A message the bus could not publish yet (Redis unreachable)."""

    __slots__ = ("game", "payload", "seq")

    def __init__(self, game: str, payload: str, seq: int | None) -> None:
        self.game, self.payload, self.seq = game, payload, seq


class RedisBus:
    """Workers sharing one Redis (``url``, e.g. ``redis://127.0.0.1:6379/0``); see the module
    docstring for what happens when Redis is lost."""

    def __init__(self, url: str, prefix: str = PREFIX) -> None:
        import redis
        from redis.backoff import ExponentialWithJitterBackoff
        from redis.retry import Retry

        self.worker = uuid.uuid4().hex
        self.prefix = prefix
        self.url = url
        # a dropped connection is tried again twice at once; a Redis that is down fails fast
        self.redis = redis.Redis.from_url(
            url,
            socket_timeout=SOCKET_TIMEOUT,
            socket_connect_timeout=CONNECT_TIMEOUT,
            health_check_interval=HEALTH_CHECK,
            retry=Retry(ExponentialWithJitterBackoff(base=0.01, cap=0.1), 2),
        )
        self.redis.ping()
        self._recent = self._key("recent")
        self._pubsub: Any = None
        self._relinked = threading.Event()  # the subscription's connection came back by itself
        self._last: StreamId | None = None  # the stream id of the last message read
        self._thread: threading.Thread | None = None
        self._closing = threading.Event()
        self._handlers: list[Handler] = []
        self._hooks: list[Callable[[], Hook | None]] = []
        self._guard = threading.Lock()
        self._outbox: collections.deque[_Kept] = collections.deque(maxlen=OUTBOX)
        self._dropped = 0
        self._down_since: float | None = None
        self.outages = 0
        self._lease = self.redis.register_script(LEASE_SCRIPT)
        self._acquire = self.redis.register_script(ACQUIRE_SCRIPT)
        self._release = self.redis.register_script(RELEASE_SCRIPT)
        self._publish = self.redis.register_script(PUBLISH_SCRIPT)

    def _key(self, *parts: str) -> str:
        return ":".join((self.prefix, *parts))

    def _payload(self, game: str, message: dict[str, Any] | None) -> str:
        return json.dumps({"origin": self.worker, "game": game, "message": message})

    # ------------------------------------------------------------------ outages
    @property
    def down(self) -> bool:
        """Is Redis unreachable as far as this worker last knew?"""
        return self._down_since is not None

    def _lost(self, exc: BaseException) -> None:
        """Redis failed to answer: the first failure of an outage is logged, once."""
        with self._guard:
            if self._down_since is not None:
                return
            self._down_since = time.monotonic()
            self.outages += 1
        log.warning(
            "Redis (%s) is unreachable (%s): this worker keeps what it publishes and tries "
            "again with backoff",
            self.url,
            exc,
        )

    def _keep(self, game: str, payload: str, seq: int | None) -> None:
        with self._guard:
            if len(self._outbox) == self._outbox.maxlen:
                self._dropped += 1
            self._outbox.append(_Kept(game, payload, seq))

    def _send(self, kept: _Kept) -> None:
        self._publish(
            keys=[self._recent, self._key("game", kept.game), self._key("seq", kept.game)],
            args=[kept.payload, "" if kept.seq is None else kept.seq, RECENT, SEQ_TTL],
        )

    def _flush(self) -> int:
        """Send what the outbox kept, oldest first (stops at the first failure)."""
        sent = 0
        while True:
            with self._guard:
                if not self._outbox:
                    return sent
                kept = self._outbox[0]
            self._send(kept)
            sent += 1
            with self._guard:
                if self._outbox and self._outbox[0] is kept:
                    self._outbox.popleft()

    def _back(self, read: int, sent: int) -> None:
        """Redis answers again: one line for the outage, then the reconnect hooks."""
        with self._guard:
            since, self._down_since = self._down_since, None
            dropped, self._dropped = self._dropped, 0
        if since is None:
            return
        log.warning(
            "Redis (%s) is back after %.1f s: subscribed again, %d missed message(s) read, "
            "%d kept message(s) sent%s; the games here catch up from the database",
            self.url,
            time.monotonic() - since,
            read,
            sent,
            f", {dropped} dropped (outbox full)" if dropped else "",
        )
        self._run_hooks()

    def on_reconnect(self, hook: Hook) -> None:
        """Call ``hook()`` (in the bus thread) after each outage, once this worker has
        subscribed again and read what it missed. A bound method is held weakly (its object
        may go away without telling the bus)."""
        ref: Callable[[], Hook | None]
        if inspect.ismethod(hook):
            ref = weakref.WeakMethod(hook)
        else:

            def ref(hook: Hook = hook) -> Hook:
                return hook

        with self._guard:
            self._hooks.append(ref)

    def _run_hooks(self) -> None:
        with self._guard:
            refs = list(self._hooks)
        for ref in refs:
            hook = ref()
            if hook is None:
                with self._guard:
                    self._hooks.remove(ref)
                continue
            try:
                hook()
            except Exception:
                log.exception("a reconnect hook of the bus failed")

    # ------------------------------------------------------------------ fan-out
    def publish(self, game: str, message: dict[str, Any], seq: int | None = None) -> None:
        """Send ``message`` about ``game`` to every other worker; with ``seq``, record it as
        the game's last stored action (in the same round trip). Never raises for Redis:
        while it is unreachable the message is kept and sent when it answers again."""
        import redis

        kept = _Kept(game, self._payload(game, message), seq)
        with self._guard:
            waiting = self._down_since is not None or bool(self._outbox)
        if not waiting:
            try:
                self._send(kept)
                return
            except redis.RedisError as exc:
                self._lost(exc)
        self._keep(kept.game, kept.payload, kept.seq)

    def listen(self, handler: Handler) -> None:
        """Call ``handler(game, message)`` (in the bus thread) for every message another
        worker publishes, from now on (subscribed before this returns when Redis answers)."""
        import redis

        self._handlers.append(handler)
        if self._thread is not None:
            return
        try:
            self._subscribe()
        except redis.RedisError as exc:
            self._lost(exc)
        self._thread = threading.Thread(target=self._listen, name="westeros-bus", daemon=True)
        self._thread.start()

    def _subscribe(self) -> int:
        """Subscribe to every game's channel, then read from the stream what was published
        since the last message read; how many that was."""
        pubsub: Any = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            if self._last is None:  # the first time: from now on
                newest: Any = self.redis.xrevrange(self._recent, count=1)
                self._last = stream_id(newest[0][0]) if newest else (0, 0)
            pubsub.psubscribe(self._key("game", "*"))
            self._relinked.clear()
            pubsub.connection.register_connect_callback(self._connected_again)
            ms, seq = self._last
            missed: Any = self.redis.xrange(self._recent, min=f"({ms}-{seq}", max="+")
        except BaseException:
            pubsub.close()
            raise
        self._pubsub = pubsub
        for entry, fields in missed:
            self._receive(stream_id(entry), fields[b"m"])
        return len(missed)

    def _connected_again(self, _connection: object) -> None:
        """redis-py connected the subscription again by itself (after a quick Redis restart,
        retried within its own attempts): the listener treats it as an outage, so that it
        reads what it missed and runs the reconnect hooks."""
        self._relinked.set()

    def _drop_subscription(self) -> None:
        if self._pubsub is not None:
            try:
                if self._pubsub.connection is not None:
                    self._pubsub.connection.deregister_connect_callback(self._connected_again)
                self._pubsub.close()
            except Exception:
                log.debug("closing a dead subscription failed", exc_info=True)
            self._pubsub = None

    def _listen(self) -> None:
        """The bus thread: read messages; on a failure, back off and subscribe again."""
        import redis

        delay = BACKOFF_FIRST
        while not self._closing.is_set():
            try:
                read = self._subscribe() if self._pubsub is None else 0
                sent = self._flush()
                if self.down:
                    self._back(read, sent)
                raw = self._pubsub.get_message(timeout=LISTEN_POLL)
                if self._relinked.is_set():
                    raise redis.ConnectionError("the subscription had to connect again")
                if raw is not None and raw.get("type") == "pmessage":
                    entry, _, payload = raw["data"].partition(b" ")
                    self._receive(stream_id(entry), payload)
                delay = BACKOFF_FIRST
            except (redis.RedisError, OSError, ValueError) as exc:
                self._lost(exc)
                self._drop_subscription()
                self._closing.wait(delay * random.uniform(0.5, 1.0))
                delay = min(delay * 2, BACKOFF_MAX)
        self._drop_subscription()

    def _receive(self, entry: StreamId, payload: bytes) -> None:
        """Deliver one message, unless it was read already (from the stream) or is ours."""
        if self._last is not None and entry <= self._last:
            return
        self._last = entry
        try:
            data = json.loads(payload)
        except (ValueError, TypeError):
            return
        if not isinstance(data, dict) or data.get("origin") == self.worker:
            return
        for handle in list(self._handlers):
            try:
                handle(data["game"], data["message"])
            except Exception:
                log.exception("bus handler failed")

    # ------------------------------------------------------------------ writer lock
    @contextmanager
    def lock(self, game: str) -> Iterator[Writing]:
        """The game's writer lock, a Redis lease of LOCK_TIMEOUT seconds (BusError when it
        cannot be had within LOCK_WAIT, or at once when Redis is unreachable). Taking it
        reads the game's serial and releasing it publishes the message given to
        ``Writing.publish``, each in the same round trip; a release that Redis does not
        answer keeps the message for later (the lock runs out by itself)."""
        import redis

        token = uuid.uuid4().hex
        keys = [self._key("lock", game), self._key("seq", game)]
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                got = self._acquire(keys=keys, args=[token, int(LOCK_TIMEOUT * 1000)])
            except redis.RedisError as exc:
                self._lost(exc)
                raise BusError(
                    f"game {game}: the server's shared Redis does not answer; try again"
                ) from exc
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
            payload = self._payload(game, writing.message) if published else ""
            self._unlock(game, keys, token, payload, writing.stored if published else None)

    def _unlock(
        self, game: str, keys: list[str], token: str, payload: str, seq: int | None
    ) -> None:
        import redis

        with self._guard:
            waiting = self._down_since is not None or bool(self._outbox)
        try:
            released = self._release(
                keys=[*keys, self._key("game", game), self._recent],
                args=[
                    token,
                    "" if seq is None else seq,
                    "" if waiting else payload,
                    SEQ_TTL,
                    RECENT,
                ],
            )
        except redis.RedisError as exc:
            self._lost(exc)
            released, waiting = True, True
        if payload and waiting:  # sent after what the outbox holds, in order
            self._keep(game, payload, seq)
        if not released:
            log.warning("game %s: the writer lock had expired", game)

    # ------------------------------------------------------------------ leases, presence
    def leases(self, games: Iterable[str], ttl: float) -> set[str]:
        """Take or renew each game's AI/clock lease for ``ttl`` seconds (one script call:
        a pipeline of one call per game cost a scan of 100 games more than the rest); the
        games whose lease this worker holds now (none while Redis is unreachable)."""
        import redis

        games = list(games)
        if not games:
            return set()
        try:
            held = self._lease(
                keys=[self._key("lease", g) for g in games], args=[self.worker, int(ttl * 1000)]
            )
        except redis.RedisError as exc:
            self._lost(exc)
            return set()
        return {g for g, one in zip(games, held, strict=True) if one}

    def seqs(self, games: Iterable[str]) -> dict[str, int]:
        """The serial of each game's last stored action, where Redis knows it."""
        import redis

        games = list(games)
        if not games:
            return {}
        try:
            found = self.redis.mget([self._key("seq", g) for g in games])
        except redis.RedisError as exc:
            self._lost(exc)
            return {}
        return {g: int(v) for g, v in zip(games, found, strict=True) if v is not None}

    def note_seq(self, game: str, seq: int) -> None:
        """A replica read ``game`` up to ``seq`` from the store (kept if nothing newer is)."""
        import redis

        try:
            self.redis.set(self._key("seq", game), seq, ex=SEQ_TTL, nx=True)
        except redis.RedisError as exc:
            self._lost(exc)

    def set_present(self, seats: Mapping[str, str], ttl: float) -> None:
        """Each connection (key) is open for its seat (value) for ``ttl`` more seconds (the
        worker renews them every few seconds, so they come back after an outage)."""
        import redis

        if not seats:
            return
        until = time.time() + ttl
        pipe = self.redis.pipeline(transaction=False)
        for conn, seat in seats.items():
            pipe.zadd(self._key("present", seat), {conn: until})
        try:
            pipe.execute()
        except redis.RedisError as exc:
            self._lost(exc)

    def set_absent(self, seat: str, conn: str) -> None:
        """Connection ``conn`` of ``seat`` has closed."""
        import redis

        try:
            self.redis.zrem(self._key("present", seat), conn)
        except redis.RedisError as exc:
            self._lost(exc)

    def present(self, seats: Iterable[str]) -> set[str]:
        """Those of ``seats`` that have an open connection on some worker (one round trip;
        none while Redis is unreachable)."""
        import redis

        seats = list(seats)
        if not seats:
            return set()
        now = time.time()
        pipe = self.redis.pipeline(transaction=False)
        for seat in seats:
            pipe.zcount(self._key("present", seat), now, "+inf")
        try:
            counts = pipe.execute()
        except redis.RedisError as exc:
            self._lost(exc)
            return set()
        return {s for s, n in zip(seats, counts, strict=True) if n}

    def close(self) -> None:
        """Stop listening and close the connections."""
        self._closing.set()
        if self._thread is not None:
            self._thread.join(LISTEN_POLL + 2)
        self._drop_subscription()
        self.redis.close()


def make_bus(url: str | None, prefix: str = PREFIX) -> LocalBus | RedisBus:
    """A RedisBus for ``url`` (keys and channels under ``prefix``), or a LocalBus."""
    return RedisBus(url, prefix) if url else LocalBus()
