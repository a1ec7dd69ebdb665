"""Chat rules (docs/online.md): plain text, at most ``MAX_CHARS`` characters, no control
characters, at most ``BURST`` messages in a row then one per ``REFILL_SECONDS`` per player;
a raven (private message) goes from a house to another house of the same game. Spectators
may write only to the public table (and read only it: ``ChatLine.visible_to``)."""

from __future__ import annotations

import threading
import time
import unicodedata
from collections.abc import Callable, Collection

from .errors import BadChat, ChatFlood

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


class RateLimit:
    """A token bucket per sender: ``burst`` messages at once, then one per ``refill`` s."""

    def __init__(
        self,
        burst: int = BURST,
        refill: float = REFILL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst = burst
        self.refill = refill
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def check(self, sender: str) -> None:
        """Count one message from ``sender``; ChatFlood when the bucket is empty."""
        with self._lock:
            now = self.clock()
            tokens, then = self._buckets.get(sender, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) / self.refill)
            if tokens < 1.0:
                self._buckets[sender] = (tokens, now)
                raise ChatFlood("you are writing too fast: wait a moment")
            self._buckets[sender] = (tokens - 1.0, now)
