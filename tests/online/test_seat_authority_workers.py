"""One seat authority across workers (issue 35 finding 4, docs/online.md "Seats"): a seat
changed through one worker rebinds at once the sockets another worker holds for that lobby
(the bus's ``seat`` message), and a raven delivered by the other worker reaches only the
seat's holder as stored at that moment. Two hubs share one SQLite file and one Redis
database, as two ``westeros server`` workers would."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from westeros.online.hub import Conn, OnlineHub
from westeros.saves import open_store

from .helpers import wait_for
from .seat_helpers import redis_or_skip, two_hubs


@pytest.fixture
def two_workers(tmp_path: Path) -> Iterator[tuple[OnlineHub, OnlineHub]]:
    url = redis_or_skip()
    store = open_store(f"sqlite:///{tmp_path / 'workers.db'}")
    with two_hubs(store, url, "seats") as hubs:
        yield hubs
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
