"""Turn clocks stored with the game (issue 35 finding 10, docs/online.md "At the table"): the
time bank of a person who is asked to decide runs down, is stored as it runs, and a worker
started afterwards (a restart) or another worker of the server shows and goes on with the
stored bank, never a full one."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from westeros.online.bus import LocalBus, RedisBus
from westeros.online.hub import Conn, OnlineHub
from westeros.online.records import PlayerInfo
from westeros.online.store import OnlineStore
from westeros.saves import open_store
from westeros.store import GameStore

from .helpers import wait_for
from .live import ENV_REDIS

CLOCK_S = 120


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    opened = open_store(f"sqlite:///{tmp_path / 'clock.db'}")
    yield opened
    opened.close()


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(2) as executor:
        yield executor


def _hub(store: GameStore, pool: ThreadPoolExecutor, bus: Any = None) -> OnlineHub:
    return OnlineHub(
        store,
        OnlineStore(store.engine),
        bus if bus is not None else LocalBus(),
        pool,
        ai_budget=0.05,
        tick=0.05,
        scan=0.2,
    )


def _clocked_game(hub: OnlineHub) -> tuple[str, PlayerInfo]:
    """A started 3-player game with a turn clock: a person in Stark, the AI elsewhere."""
    host = hub.online.register("Hal")[0]
    lobby, _ = hub.create_lobby(
        host,
        name="Clocked",
        players=3,
        host_house="stark",
        ai_level="baseline",
        clock_seconds=CLOCK_S,
        grace_seconds=600,
    )
    hub.start_game(lobby.id, host)
    return lobby.id, host


def _bank(hub: OnlineHub, lobby_id: str, house: str = "stark") -> float:
    seats = {s["house"]: s for s in hub.roster(lobby_id)["seats"]}
    return float(seats[house]["clock_left"])


def test_a_restarted_worker_goes_on_with_the_stored_time_bank(
    store: GameStore, pool: ThreadPoolExecutor
) -> None:
    """Issue 35 finding 10 (M7): Stark's person is asked for orders and their bank runs
    down; the worker stops; a new worker on the same database shows the bank as it was
    when the first stopped, not a full one."""
    first = _hub(store, pool)
    lobby_id, host = _clocked_game(first)
    first.connect(Conn(lobby_id, "stark", lambda _: None, host, board=True))
    first.start()
    wait_for(lambda: _bank(first, lobby_id) <= CLOCK_S - 2, timeout=30)
    first.close()
    ran = _bank(first, lobby_id)

    second = _hub(store, pool)
    try:
        after = _bank(second, lobby_id)
        print(f"bank when the first worker stopped: {ran:.1f} s; the next worker shows {after} s")
        assert after <= CLOCK_S - 2
        assert abs(after - ran) <= 0.5
    finally:
        second.close()


def test_two_workers_show_the_same_time_bank(store: GameStore, pool: ThreadPoolExecutor) -> None:
    """Issue 35 finding 10 (M7): the worker that runs the game's clock and a worker that only
    follows it show the same bank (to within one of the runner's scans)."""
    url = os.environ.get(ENV_REDIS)
    if not url:
        pytest.skip(f"two workers need Redis: set {ENV_REDIS} (e.g. redis://127.0.0.1:6379/7)")
    prefix = f"clock-{uuid.uuid4().hex[:8]}"
    runner, follower = (
        _hub(store, pool, RedisBus(url, prefix)),
        _hub(store, pool, RedisBus(url, prefix)),
    )
    try:
        lobby_id, host = _clocked_game(runner)
        runner.connect(Conn(lobby_id, "stark", lambda _: None, host, board=True))
        runner.start()  # the follower's thread is not started: it never takes the lease
        wait_for(lambda: _bank(runner, lobby_id) <= CLOCK_S - 5, timeout=30)
        shown = _bank(runner, lobby_id), _bank(follower, lobby_id)
        print(f"the runner shows {shown[0]:.1f} s, the follower {shown[1]:.1f} s")
        assert abs(shown[0] - shown[1]) <= 2.0
    finally:
        for hub in (runner, follower):
            hub.close()
            hub.bus.close()
