"""One seat authority across workers (issue 35 finding 4, docs/online.md "Seats"): a seat
changed through one worker rebinds at once the sockets another worker holds for that lobby
(the bus's ``seat`` message), and a raven delivered by the other worker reaches only the
seat's holder as stored at that moment. Two hubs share one SQLite file and one Redis
database, as two ``westeros server`` workers would."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from westeros.online.bus import RedisBus
from westeros.online.hub import Conn, OnlineHub
from westeros.online.store import OnlineStore
from westeros.saves import open_store

from .helpers import wait_for
from .live import ENV_REDIS


@pytest.fixture
def two_workers(tmp_path: Path) -> Iterator[tuple[OnlineHub, OnlineHub]]:
    import os

    import redis

    url = os.environ.get(ENV_REDIS)
    if not url:
        pytest.skip(f"two workers need Redis: set {ENV_REDIS} (e.g. redis://127.0.0.1:6379/7)")
    try:
        redis.Redis.from_url(url).ping()
    except redis.RedisError as exc:
        pytest.skip(f"Redis is not reachable ({exc})")
    prefix = f"seats-{uuid.uuid4().hex[:8]}"
    store = open_store(f"sqlite:///{tmp_path / 'workers.db'}")
    pool = ThreadPoolExecutor(1)
    hubs = [OnlineHub(store, OnlineStore(store.engine), RedisBus(url, prefix), pool) for _ in "ab"]
    yield hubs[0], hubs[1]
    for hub in hubs:
        hub.close()
        hub.bus.close()
    pool.shutdown()
    store.close()


def test_a_seat_taken_through_one_worker_rebinds_the_lobby_socket_another_worker_holds(
    two_workers: tuple[OnlineHub, OnlineHub],
) -> None:
    """Issue 35 finding 4 (C1): Alice's lobby socket is held by worker B; she moves from
    Lannister to Baratheon through worker A. B tells her socket at once, and of the ravens
    A's host then sends, B delivers Lannister's to nobody of hers and Baratheon's to her."""
    a, b = two_workers
    host, alice, bob = (a.online.register(name)[0] for name in ("Hal", "Alice", "Bob"))
    lobby, _ = a.create_lobby(
        host, name="Two workers", players=3, host_house="stark", ai_level="baseline"
    )
    a.take(lobby.id, alice, "lannister")
    got: list[dict[str, Any]] = []
    on_b = Conn(lobby.id, "lannister", got.append, alice, board=False)
    b.connect(on_b)
    hosting = Conn(lobby.id, "stark", lambda _: None, host, board=False)
    a.connect(hosting)

    a.take(lobby.id, alice, "baratheon")
    told = wait_for(lambda: [m for m in got if m["type"] == "seat"], timeout=10)
    assert told[-1]["house"] == "baratheon" and on_b.house == "baratheon"
    a.take(lobby.id, bob, "lannister")
    a.chat(hosting, {"text": "Lannister only", "to": "lannister"})
    a.chat(hosting, {"text": "Baratheon only", "to": "baratheon"})
    a.chat(hosting, {"text": "everyone"})
    wait_for(lambda: any(m.get("text") == "everyone" for m in got), timeout=10)
    texts = [m["text"] for m in got if m["type"] == "chat"]
    print("worker B delivered to Alice's socket:", texts)
    assert "Lannister only" not in texts
    assert "Baratheon only" in texts
