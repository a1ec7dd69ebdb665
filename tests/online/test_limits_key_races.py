"""Limits per key hold under concurrent requests (issue 35 finding 11, docs/online.md
"Limits"), on SQLite and on PostgreSQL: one key creating lobbies or starting games many at
once gets exactly its limit, the rest a clear ``online/too-many``. Reads of the seats and
lobbies by the racing threads are slowed on purpose (printed)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from westeros.online.bus import LocalBus
from westeros.online.hub import OnlineHub
from westeros.online.quotas import KeyQuotas
from westeros.online.store import OnlineStore

from .seat_helpers import SlowReads, race, race_store

RACERS = 8


@pytest.fixture(params=["sqlite", "postgresql"])
def hub(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[OnlineHub]:
    """A hub (not started) whose keys may host 3 open lobbies and run 2 games."""
    with race_store(request.param, tmp_path) as store, ThreadPoolExecutor(1) as pool:
        made = OnlineHub(
            store,
            OnlineStore(store.engine),
            LocalBus(),
            pool,
            quotas=KeyQuotas(lobbies=3, games=2),
        )
        yield made
        made.close()


def test_one_key_creating_lobbies_at_once_gets_exactly_its_limit(hub: OnlineHub) -> None:
    """Issue 35 finding 11 (M4): eight lobbies asked at once by one key (limit 3): three
    are created, five refused with online/too-many, and the key hosts three."""
    host = hub.online.register("Flood")[0]
    create = functools.partial(hub.create_lobby, host, name="Flood", players=3, host_house=None)
    with SlowReads(hub.store.engine) as slow:
        won, lost = race([create] * RACERS)
    hosted = [lobby for lobby in hub.online.lobbies() if lobby.host_id == host.id]
    print(
        f"{hub.store.engine.dialect.name}: {RACERS} creations at once by one key, "
        f"{slow.paused} reads paused: created {len(won)}, refused {len(lost)}"
    )
    assert (len(won), len(hosted)) == (3, 3)
    assert {e.code for e in lost} == {"online/too-many"}


def test_one_key_starting_games_at_once_runs_exactly_its_limit(hub: OnlineHub) -> None:
    """Issue 35 finding 11 (M4): one host starts three lobbies at once (limit 2 running
    games): two games start, the third lobby stays open, refused with online/too-many."""
    host = hub.online.register("Hal")[0]
    lobbies = [
        hub.create_lobby(host, name=f"T{n}", players=3, host_house="stark")[0].id for n in range(3)
    ]
    with SlowReads(hub.store.engine) as slow:
        won, lost = race([functools.partial(hub.start_game, lobby, host) for lobby in lobbies])
    statuses = sorted(hub.online.lobby(lobby).status for lobby in lobbies)
    print(
        f"{hub.store.engine.dialect.name}: 3 starts at once by one key, {slow.paused} reads "
        f"paused: started {len(won)}, refused {len(lost)}; lobbies {statuses}"
    )
    assert len(won) == 2 and [e.code for e in lost] == ["online/too-many"]
    assert statuses == ["open", "running", "running"]
    assert len(hub.store.list_games()) == 2
