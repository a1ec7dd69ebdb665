"""What one client may hold of an online server worker (issue 35 findings 12, 16, 17;
docs/online.md "Limits"): open sockets per address and per player key, a socket's queue of
messages not yet sent and how long one send may wait, the messages a socket may send per
second, the HTTP requests an address may make per second, and replays worked out at once per
key or address.

Each limit has a default here and a setting: a ``westeros server`` option, which reaches the
workers as the environment variable named in ``SETTINGS`` (``Limits.from_env``). The
counters are per worker process: each worker bounds its own memory."""

from __future__ import annotations

import argparse
import dataclasses
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from .errors import OnlineError

CLOSE_TOO_SLOW = 4408
"""Close code of a socket whose reader fell behind (its queue filled or a send timed out)."""
CLOSE_TOO_MANY = 4429
"""Close code of a socket refused by a limit (too many sockets, too many messages)."""


class TooManySockets(OnlineError):
    """This address or key already holds as many sockets as one may."""

    code = "online/too-many-sockets"
    status = 429


class TooFast(OnlineError):
    """A socket sent messages faster than one may (the message was not handled)."""

    code = "online/rate-limited"
    status = 429


class TooManyRequests(OnlineError):
    """A client address made HTTP requests faster than one may (the request was not handled)."""

    code = "online/too-many-requests"
    status = 429


class ReplayBusy(OnlineError):
    """This key or address already has as many replays being worked out as one may."""

    code = "online/replay-busy"
    status = 429


@dataclasses.dataclass(frozen=True, slots=True)
class Limits:
    """The limits of one worker (see the module docstring); 0 turns a count limit off."""

    sockets_per_address: int = 64
    sockets_per_key: int = 16
    send_queue: int = 64
    send_timeout: float = 10.0
    messages_per_second: float = 10.0
    message_burst: int = 40
    replays_per_asker: int = 2
    voice_signals_per_second: float = 50.0
    voice_signal_burst: int = 300
    requests_per_second: float = 50.0
    request_burst: int = 500

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Limits:
        """The limits the environment sets (the defaults for those it does not); ValueError
        names a setting that is not a number or is out of range."""
        values: dict[str, float | int] = {}
        for field, (name, option, _) in SETTINGS.items():
            raw = env.get(name, "").strip()
            if raw:
                values[field] = parse(field, raw, f"{option} ({name})")
        return cls(**values)  # type: ignore[arg-type]

    def env(self) -> dict[str, str]:
        """These limits as the environment variables ``from_env`` reads."""
        return {name: str(getattr(self, field)) for field, (name, _, _) in SETTINGS.items()}


SETTINGS: dict[str, tuple[str, str, str]] = {
    "sockets_per_address": (
        "WESTEROS_SOCKETS_PER_ADDRESS",
        "--sockets-per-address",
        "open sockets per client address (0: no limit)",
    ),
    "sockets_per_key": (
        "WESTEROS_SOCKETS_PER_KEY",
        "--sockets-per-key",
        "open sockets per player key (0: no limit)",
    ),
    "send_queue": (
        "WESTEROS_SEND_QUEUE",
        "--send-queue",
        "messages waiting to be sent on one socket before it is closed as too slow",
    ),
    "send_timeout": (
        "WESTEROS_SEND_TIMEOUT",
        "--send-timeout",
        "seconds one message may wait to be sent before its socket is closed as too slow",
    ),
    "messages_per_second": (
        "WESTEROS_SOCKET_MESSAGES_PER_SECOND",
        "--socket-messages-per-second",
        "messages a socket may send per second, after its burst",
    ),
    "message_burst": (
        "WESTEROS_SOCKET_MESSAGE_BURST",
        "--socket-message-burst",
        "messages a socket may send at once",
    ),
    "replays_per_asker": (
        "WESTEROS_REPLAYS_PER_ASKER",
        "--replays-per-asker",
        "replays worked out at once per player key or address (0: no limit)",
    ),
    "voice_signals_per_second": (
        "WESTEROS_VOICE_SIGNALS_PER_SECOND",
        "--voice-signals-per-second",
        "table voice signals (offers, answers, ICE candidates) a socket may send per second, "
        "after its burst",
    ),
    "voice_signal_burst": (
        "WESTEROS_VOICE_SIGNAL_BURST",
        "--voice-signal-burst",
        "table voice signals a socket may send at once (a join sends dozens of ICE candidates)",
    ),
    "requests_per_second": (
        "WESTEROS_HTTP_REQUESTS_PER_SECOND",
        "--http-requests-per-second",
        "HTTP requests (static files aside) a client address may make per second, after its "
        "burst (0: no limit)",
    ),
    "request_burst": (
        "WESTEROS_HTTP_REQUEST_BURST",
        "--http-request-burst",
        "HTTP requests a client address may make at once",
    ),
}
"""Each limit's environment variable, ``westeros server`` option and meaning."""

POSITIVE = (
    "send_queue",
    "send_timeout",
    "messages_per_second",
    "message_burst",
    "voice_signals_per_second",
    "voice_signal_burst",
    "request_burst",
)
"""Limits that cannot be turned off (0 would refuse every message)."""


def parse(field: str, raw: str, name: str) -> float | int:
    """The value ``raw`` of limit ``field`` (set as ``name``); ValueError with the reason."""
    kind = type(getattr(Limits(), field))
    try:
        value = kind(raw)
    except ValueError as exc:
        number = "a whole number" if kind is int else "a number"
        raise ValueError(f"{name} must be {number}, not {raw!r}") from exc
    if value < 0 or (value == 0 and field in POSITIVE):
        floor = "above 0" if field in POSITIVE else "0 (no limit) or more"
        raise ValueError(f"{name} must be {floor}, not {raw}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One ``westeros server`` option per limit (``from_options`` reads them)."""
    defaults = Limits()
    for field, (name, option, meaning) in SETTINGS.items():
        parser.add_argument(
            option,
            dest=f"limit_{field}",
            default=None,
            metavar="N",
            help=f"{meaning} (default {getattr(defaults, field)}; or {name})",
        )


def from_options(options: Mapping[str, object], env: Mapping[str, str]) -> Limits:
    """The limits the ``add_arguments`` options give, else ``env``, else the defaults;
    ValueError names a setting that is wrong."""
    given = {
        name: str(options[f"limit_{field}"])
        for field, (name, _, _) in SETTINGS.items()
        if options.get(f"limit_{field}") is not None
    }
    return Limits.from_env({**env, **given})


class SocketCounter:
    """The sockets this worker holds open per client address and per player key (its hash).
    Used from the event loop only."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._addresses: Counter[str] = Counter()
        self._keys: Counter[str] = Counter()

    @contextmanager
    def hold(self, address: str, key: str | None) -> Iterator[None]:
        """Count one socket of ``address`` and ``key`` (None: no key) while the block runs;
        TooManySockets, counting nothing, when either already holds its limit."""
        per_address, per_key = self.limits.sockets_per_address, self.limits.sockets_per_key
        if per_address and self._addresses[address] >= per_address:
            raise TooManySockets(f"this address already has {per_address} sockets open")
        if key is not None and per_key and self._keys[key] >= per_key:
            raise TooManySockets(f"this player key already has {per_key} sockets open")
        self._addresses[address] += 1
        if key is not None:
            self._keys[key] += 1
        try:
            yield
        finally:
            self._addresses -= Counter({address: 1})
            if key is not None:
                self._keys -= Counter({key: 1})


class Bucket:
    """A token bucket: ``burst`` at once, then ``rate`` a second."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = now

    def take(self, now: float) -> bool:
        """Take one token at time ``now``: False (nothing taken) when the bucket is empty."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def full(self, now: float) -> bool:
        """Has the bucket filled up again by ``now`` (so forgetting it changes nothing)?"""
        return self.tokens + (now - self.at) * self.rate >= self.burst


class MessageRate:
    """A token bucket of one socket: ``message_burst`` messages at once, then
    ``messages_per_second`` (with ``voice``: its table voice signals' own bucket,
    ``voice_signal_burst`` then ``voice_signals_per_second``)."""

    def __init__(
        self, limits: Limits, clock: Callable[[], float] = time.monotonic, *, voice: bool = False
    ) -> None:
        self.rate = limits.voice_signals_per_second if voice else limits.messages_per_second
        burst = float(limits.voice_signal_burst if voice else limits.message_burst)
        self.clock = clock
        self.bucket = Bucket(self.rate, burst, clock())

    def take(self) -> None:
        """Count one message; TooFast when the bucket is empty."""
        if not self.bucket.take(self.clock()):
            raise TooFast(
                f"this socket may send {self.rate:g} messages a second: "
                "the message was not handled, send it again in a moment"
            )


class Buckets:
    """A token bucket per key (``Bucket``), across threads. Keys whose bucket has filled up
    again are forgotten, so memory follows the keys active in the last ``burst / rate``
    seconds."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: dict[str, Bucket] = {}
        self._swept = clock()
        self._lock = threading.Lock()

    def take(self, key: str) -> bool:
        """Take one token of ``key``'s bucket: False (nothing taken) when it is empty."""
        with self._lock:
            now = self.clock()
            if now - self._swept >= self.burst / self.rate:
                self._buckets = {k: b for k, b in self._buckets.items() if not b.full(now)}
                self._swept = now
            return self._buckets.setdefault(key, Bucket(self.rate, self.burst, now)).take(now)

    def __len__(self) -> int:
        return len(self._buckets)


class RequestRate:
    """The HTTP requests of one worker, a token bucket per client address (``Buckets``):
    ``request_burst`` at once, then ``requests_per_second`` (0: no limit)."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = limits.requests_per_second
        self._buckets = (
            Buckets(self.rate, float(limits.request_burst), clock) if self.rate else None
        )

    def take(self, address: str) -> None:
        """Count one request of ``address``; TooManyRequests when its bucket is empty."""
        if self._buckets is not None and not self._buckets.take(address):
            raise TooManyRequests(
                f"this address may make {self.rate:g} requests a second: "
                "the request was not handled, try again in a moment"
            )

    def __len__(self) -> int:
        return len(self._buckets) if self._buckets is not None else 0


class Gate:
    """How many slow jobs (replays) each asker runs at once, across threads."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._running: Counter[str] = Counter()
        self._lock = threading.Lock()

    @contextmanager
    def enter(self, asker: str) -> Iterator[None]:
        """Run the block as one of ``asker``'s jobs; ReplayBusy when it already runs
        ``limit`` (0: no limit)."""
        with self._lock:
            if self.limit and self._running[asker] >= self.limit:
                raise ReplayBusy(
                    f"{self.limit} replays of yours are being prepared: wait for them first"
                )
            self._running[asker] += 1
        try:
            yield
        finally:
            with self._lock:
                self._running -= Counter({asker: 1})
