"""The chat rate limit (docs/online.md "At the table") holds for the whole server: at most
BURST messages in a row, then one a second per player, however many workers the player's
sockets reach. Two workers here are two buses on one Redis database, each with the limiter
its hub uses (``chat.rate_limit``)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import pytest

from westeros.online.bus import RedisBus, make_bus
from westeros.online.chat import BURST, SharedRateLimit, rate_limit
from westeros.online.errors import ChatFlood

from .live import shared_services


@pytest.fixture
def two_workers() -> Iterator[tuple[RedisBus, RedisBus]]:
    """Two workers' buses on one Redis, under a fresh key prefix."""
    _, redis_url = shared_services()
    prefix = f"chat-limit-{uuid.uuid4().hex[:8]}"
    first, second = make_bus(redis_url, prefix), make_bus(redis_url, prefix)
    assert isinstance(first, RedisBus) and isinstance(second, RedisBus)
    yield first, second
    first.close()
    second.close()


def test_a_player_s_burst_is_counted_across_workers(two_workers: tuple[RedisBus, RedisBus]) -> None:
    on_a, on_b = (rate_limit(bus) for bus in two_workers)
    for _ in range(BURST - 2):
        on_a.check("alice")
    on_b.check("alice")
    on_b.check("alice")  # BURST messages in all, on two workers
    with pytest.raises(ChatFlood):
        on_a.check("alice")
    with pytest.raises(ChatFlood):
        on_b.check("alice")
    on_b.check("bob")  # another player has a bucket of their own


def test_the_shared_bucket_fills_again_with_time(two_workers: tuple[RedisBus, RedisBus]) -> None:
    first, second = two_workers
    on_a = SharedRateLimit(first.redis, first.prefix, burst=2, refill=0.2)
    on_b = SharedRateLimit(second.redis, second.prefix, burst=2, refill=0.2)
    on_a.check("carol")
    on_b.check("carol")
    with pytest.raises(ChatFlood):
        on_a.check("carol")
    time.sleep(0.5)  # more than one refill period
    on_b.check("carol")
