"""Chat rules (docs/online.md): plain text, at most ``MAX_CHARS`` characters, no control
characters, at most ``BURST`` messages in a row then one per ``REFILL_SECONDS`` per player;
a raven (private message) goes from a house to another house of the same game. Spectators
may write only to the public table (and read only it: ``ChatLine.visible_to``).

The bucket is the player's (every socket and device of one key share it), and a spectator
without a key is counted by their network address: reconnecting never fills it again
(issue 35 finding 15).

The rate is counted for the whole server: with Redis every worker counts in the same bucket
(``SharedRateLimit``: a Redis hash per sender that expires once the bucket would be full
again); without Redis, one process is the whole server (``RateLimit``)."""

from __future__ import annotations

import logging
import time
import unicodedata
from collections.abc import Callable, Collection
from typing import Any, Protocol

from .bus import Bus, RedisBus
from .errors import BadChat, ChatFlood
from .limits import Buckets
from .records import PlayerInfo

log = logging.getLogger("westeros.online.chat")

MAX_CHARS = 500
BURST = 5
REFILL_SECONDS = 1.0


def clean_text(text: object) -> str:
    """``text`` checked: a non-empty string of at most MAX_CHARS characters without control
    characters (newlines become spaces). BadChat otherwise."""
    if not isinstance(text, str):
        raise BadChat("a chat message is a text")
    text = " ".join(text.replace("\r", "\n").split("\n")).strip()
    if not text:
        raise BadChat("a chat message cannot be empty")
    if len(text) > MAX_CHARS:
        raise BadChat(f"a chat message may have at most {MAX_CHARS} characters")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs") for c in text):
        raise BadChat("a chat message may not hold control characters")
    return text


def check_recipient(sender: str | None, to: object, houses: Collection[str]) -> str | None:
    """The house a message goes to (None: public). A spectator (``sender`` None) may only
    write publicly; a raven must go to another house of the game."""
    if to is None or to == "":
        return None
    if not isinstance(to, str) or to not in houses:
        raise BadChat(f"{to!r} is not a house of this game")
    if sender is None:
        raise BadChat("spectators may only write to the public table")
    if to == sender:
        raise BadChat("a raven goes to another house")
    return to


def sender_key(player: PlayerInfo | None, address: str | None, lobby_id: str) -> str:
    """The bucket a chat line is counted in: its player's (every socket and device of the
    key), else the spectator's network address, else (no address known) the lobby's
    anonymous spectators together; never a socket's, which a reconnection would renew."""
    if player is not None:
        return f"player:{player.id}"
    if address:
        return f"address:{address}"
    return f"spectators:{lobby_id}"


class Limiter(Protocol):
    """Counts chat messages per sender."""

    def check(self, sender: str) -> None: ...


class RateLimit:
    """A token bucket per sender (``limits.Buckets``): ``burst`` messages at once, then one
    per ``refill`` s."""

    def __init__(
        self,
        burst: int = BURST,
        refill: float = REFILL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._buckets = Buckets(1.0 / refill, float(burst), clock)

    def check(self, sender: str) -> None:
        """Count one message from ``sender``; ChatFlood when the bucket is empty."""
        if not self._buckets.take(sender):
            raise ChatFlood("you are writing too fast: wait a moment")


# one bucket per sender: refilled by elapsed Redis time, then one token taken if there is one
BUCKET_SCRIPT = """
local now = redis.call('TIME')
now = tonumber(now[1]) + tonumber(now[2]) / 1000000
local burst, refill = tonumber(ARGV[1]), tonumber(ARGV[2])
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(bucket[1]) or burst
local at = tonumber(bucket[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) / refill)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * refill * 1000))
return allowed
"""


class SharedRateLimit:
    """``RateLimit`` counted in Redis, so that every worker of a server draws on the same
    bucket of a sender (its clock is Redis's). If Redis fails, this worker counts alone
    (``RateLimit``) until it answers again."""

    def __init__(
        self, redis: Any, prefix: str, burst: int = BURST, refill: float = REFILL_SECONDS
    ) -> None:
        self.burst = burst
        self.refill = refill
        self.prefix = prefix
        self._bucket = redis.register_script(BUCKET_SCRIPT)
        self._alone = RateLimit(burst, refill)

    def check(self, sender: str) -> None:
        """Count one message from ``sender``; ChatFlood when the bucket is empty."""
        import redis

        try:
            allowed = self._bucket(
                keys=[f"{self.prefix}:chat-rate:{sender}"], args=[self.burst, self.refill]
            )
        except redis.RedisError:
            log.warning("Redis did not answer: this worker counts chat messages alone")
            self._alone.check(sender)
            return
        if not allowed:
            raise ChatFlood("you are writing too fast: wait a moment")


def rate_limit(bus: Bus) -> Limiter:
    """The chat rate limit of a worker on ``bus``: shared through Redis, else in-process."""
    if isinstance(bus, RedisBus):
        return SharedRateLimit(bus.redis, bus.prefix)
    return RateLimit()
