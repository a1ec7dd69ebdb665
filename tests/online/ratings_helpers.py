"""Helpers of the ratings and profile tests (issue 40): tables started through a hub that
runs no seat thread (so nothing moves), people, and the ratings openskill itself gives for a
list of results, worked out here from the library alone."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce

from westeros.online.bus import LocalBus
from westeros.online.hub import OnlineHub
from westeros.online.quotas import KeyQuotas
from westeros.online.records import LobbyInfo, PlayerInfo
from westeros.online.store import OnlineStore

from .helpers import rules
from .seat_helpers import race_store

Expected = dict[str, tuple[float, float]]
"""Player id: (mu, sigma)."""


def houses(players: int) -> tuple[str, ...]:
    """The houses seated in a base game of ``players``."""
    return tuple(rules().setups[players].seated_houses())


@contextlib.contextmanager
def quiet_hub(kind: str, tmp_path: Path) -> Iterator[OnlineHub]:
    """A hub on a SQLite file (``kind`` "sqlite") or a fresh PostgreSQL schema (skipped
    without one), its seat thread not started: no AI decides, games stay where they start."""
    with race_store(kind, tmp_path) as store:
        hub = OnlineHub(
            store, OnlineStore(store.engine), LocalBus(), ThreadPoolExecutor(1), quotas=quota()
        )
        try:
            yield hub
        finally:
            hub.close()


def quota() -> KeyQuotas:
    """No limit on lobbies and games per key."""
    return KeyQuotas(0, 0, 0)


def people(hub: OnlineHub, *names: str) -> list[PlayerInfo]:
    """New players called ``names``."""
    return [hub.online.register(name)[0] for name in names]


def table(
    hub: OnlineHub,
    seated: Sequence[PlayerInfo],
    *,
    players: int | None = None,
    ranked: bool = True,
    min_reliability: int = 0,
) -> LobbyInfo:
    """A started game of ``players`` (default: one per person) whose first houses ``seated``
    hold in order (the first one hosts; the other seats are the AI's)."""
    order = houses(players or len(seated))
    host, *others = seated
    lobby, invites = hub.create_lobby(
        host,
        name=f"{host.name}'s table",
        players=len(order),
        host_house=order[0],
        ranked=ranked,
        min_reliability=min_reliability,
    )
    for person, house in zip(others, order[1:], strict=False):
        hub.join(invites[house], person)
        hub.ready(lobby.id, person, True)
    return hub.start_game(lobby.id, host)


def openskill_ratings(
    games: Sequence[tuple[Mapping[str, str], Sequence[str]]],
) -> Expected:
    """The ratings OpenSkill's Plackett-Luce model (defaults) gives after ``games``, in
    order: each (house: player id, standings best first); a house the standings leave out
    shares the last place."""
    model = PlackettLuce()
    current: dict[str, tuple[float, float]] = {}
    for holders, standings in games:
        order = list(holders)
        teams = [
            [model.rating(*current.get(holders[house], (model.mu, model.sigma)))] for house in order
        ]
        last = len(standings) + 1
        ranks: list[float] = [standings.index(h) + 1 if h in standings else last for h in order]
        for house, [rating] in zip(order, model.rate(teams, ranks=ranks), strict=True):
            current[holders[house]] = (rating.mu, rating.sigma)
    return current


def holders(lobby: LobbyInfo) -> dict[str, str]:
    """House: player id of the people seated in ``lobby``."""
    return {seat.house: seat.player_id for seat in lobby.seats if seat.player_id}


@contextlib.contextmanager
def slow_reads_of(engine: sa.Engine, table_name: str, pause: float) -> Iterator[list[str]]:
    """Pause ``pause`` seconds after every read of ``table_name`` made by a racing thread
    (``seat_helpers.race``), as a slow database would: two transactions that read the same
    rows without locking them then both read them before either writes. Yields the names
    of the threads paused, as they were."""
    paused: list[str] = []

    def after(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        name = threading.current_thread().name
        read = statement.lstrip().upper().startswith("SELECT") and table_name in statement
        if read and name.startswith("racer"):
            paused.append(name)
            time.sleep(pause)

    sa.event.listen(engine, "after_cursor_execute", after)
    try:
        yield paused
    finally:
        sa.event.remove(engine, "after_cursor_execute", after)
