"""The hub after the bus lost Redis and came back (issue 35 finding 8, docs/online.md
"Faults the server survives"): the lobbies this worker had read, and whether people were
here, are read again at once, not when their time runs out (30 s for a lobby). The bus is a
``LocalBus`` that can be told it came back (its reconnect hooks run, as ``RedisBus`` runs
them once it has subscribed again) and can lose its presence entries (a Redis restart
without persistence does), or a ``RedisBus`` on a ``redis-server`` of the test's own that
is restarted for real (``tests/faults/live.py``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.faults.live import PrivateRedis
from westeros.online.bus import LISTEN_POLL, Hook, LocalBus, RedisBus
from westeros.online.hub import Conn, OnlineHub
from westeros.online.store import OnlineStore
from westeros.saves import open_store

from .helpers import wait_for

DOWN_S = (0.0, LISTEN_POLL + 1.0)
"""Seconds the private Redis stays down: at once back (redis-py connects the subscription
again within its own retries), or long enough for the listener's own retries."""
NEVER_S = 3600.0
"""A scan period no test waits for: only the reconnect makes the seat thread scan."""


class ComesBack(LocalBus):
    """A LocalBus that runs its reconnect hooks when told Redis is back."""

    def __init__(self) -> None:
        super().__init__()
        self.hooks: list[Hook] = []

    def on_reconnect(self, hook: Hook) -> None:
        self.hooks.append(hook)

    def restart(self) -> None:
        """Redis restarted without persistence: every presence entry is gone."""
        with self._guard:
            self._present.clear()

    def come_back(self) -> None:
        for hook in self.hooks:
            hook()


@pytest.fixture
def worker(tmp_path: Path) -> Iterator[tuple[OnlineHub, ComesBack]]:
    store = open_store(f"sqlite:///{tmp_path / 'reconnect.db'}")
    pool = ThreadPoolExecutor(1)
    bus = ComesBack()
    hub = OnlineHub(store, OnlineStore(store.engine), bus, pool, tick=0.05, scan=NEVER_S)
    yield hub, bus
    hub.close()
    pool.shutdown()
    store.close()


def _holder(hub: OnlineHub, lobby_id: str, house: str) -> str | None:
    """Who holds ``house`` as ``hub`` knows the lobby."""
    seat = hub.lobby(lobby_id).seat(house)
    assert seat is not None
    return seat.player_id


def test_a_seat_changed_while_the_bus_was_away_shows_at_once_when_it_comes_back(
    worker: tuple[OnlineHub, ComesBack],
) -> None:
    """Issue 35 finding 8 (H2): this worker has read the lobby; while its bus was away from
    Redis, Bob took Baratheon through another worker (whose ``seat`` message never came). As
    soon as the bus is back, this worker's lobby shows Bob in Baratheon."""
    hub, bus = worker
    host, bob = (hub.online.register(name)[0] for name in ("Hal", "Bob"))
    lobby, _ = hub.create_lobby(host, name="Away", players=3, host_house="stark")
    assert _holder(hub, lobby.id, "baratheon") is None  # read, and kept

    OnlineStore(hub.store.engine).take_seat(lobby.id, bob, "baratheon")  # another worker
    assert _holder(hub, lobby.id, "baratheon") is None  # still the one it read
    bus.come_back()
    holder = _holder(hub, lobby.id, "baratheon")
    print("after the bus came back, Baratheon is held by:", holder)
    assert holder == bob.id


def test_the_sockets_of_a_worker_are_present_again_at_once_when_the_bus_comes_back(
    worker: tuple[OnlineHub, ComesBack],
) -> None:
    """Issue 35 finding 8 (H2): Alice's Lannister board is open on this worker; Redis
    restarts and forgets it (other workers would count her away and give her seat to the AI
    after the grace period). As soon as the bus is back, her seat is present again, without
    waiting for the next scan."""
    hub, bus = worker
    hub.start()
    host, alice = (hub.online.register(name)[0] for name in ("Hal", "Alice"))
    lobby, _ = hub.create_lobby(host, name="Here", players=3, host_house="stark")
    hub.take(lobby.id, alice, "lannister")
    hub.connect(Conn(lobby.id, "lannister", lambda _: None, alice, board=True))
    seat = hub.seat_key(lobby.id, "lannister")
    assert bus.present([seat]) == {seat}

    bus.restart()
    assert bus.present([seat]) == set()
    print("injected: the bus lost every presence entry (a Redis restart), then came back")
    bus.come_back()
    wait_for(lambda: bus.present([seat]), timeout=10, step=0.02)


@pytest.mark.parametrize("down", DOWN_S)
def test_a_real_redis_restart_gives_the_worker_s_sockets_their_presence_back_at_once(
    tmp_path: Path, down: float
) -> None:
    """Issue 35 finding 8 (H2): as above, with a real RedisBus whose private redis-server
    is shut down (every key lost) and started again at once, or two seconds later: Alice's
    open Lannister board is present again as soon as the bus has subscribed again, not at
    the next scan."""
    folder = tmp_path / "redis"
    folder.mkdir()
    redis = PrivateRedis(folder)
    redis.start()
    store = open_store(f"sqlite:///{tmp_path / 'restart.db'}")
    pool = ThreadPoolExecutor(1)
    bus = RedisBus(redis.url, "hub-reconnect")
    hub = OnlineHub(store, OnlineStore(store.engine), bus, pool, tick=0.05, scan=NEVER_S)
    try:
        hub.start()
        host, alice = (hub.online.register(name)[0] for name in ("Hal", "Alice"))
        lobby, _ = hub.create_lobby(host, name="Restart", players=3, host_house="stark")
        hub.take(lobby.id, alice, "lannister")
        hub.connect(Conn(lobby.id, "lannister", lambda _: None, alice, board=True))
        seat = hub.seat_key(lobby.id, "lannister")
        assert bus.present([seat]) == {seat}

        redis.stop()
        time.sleep(down)
        redis.start()
        print(f"injected: redis-server shut down without saving (every key lost) for {down} s")
        wait_for(lambda: bus.present([seat]), timeout=20, step=0.05)
        print(f"the bus came back after {bus.outages} outage(s); Lannister is present again")
    finally:
        hub.close()
        bus.close()
        pool.shutdown()
        store.close()
        redis.stop()
