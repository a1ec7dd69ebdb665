"""A game's end is never lost between its two writes (issue 40's ratings, the lobby list): the
winning action is stored in one transaction and its lobby marked finished (and the game rated)
in the next. A store that fails at that second write, or a worker that stops between the two,
must not leave the lobby listed as running forever: the next scan of a worker that follows the
game finds it ended and marks it (``OnlineHub._game_over``). Each test prints what it injected.

The games are three-player tables whose person is away (a grace period of 0 s), so the AI
(Easy, the baseline AI) plays every seat to the end through the hub's own seat thread."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from westeros.online import ratings
from westeros.online.bus import LocalBus
from westeros.online.hub import OnlineHub
from westeros.online.records import LobbyInfo, PlayerInfo
from westeros.online.store import OnlineStore
from westeros.store import GameStore
from westeros.store.online import FINISHED, RUNNING

from .helpers import wait_for
from .ratings_helpers import houses, people, quota
from .seat_helpers import race_store

GAME_S = 300.0
"""How long the AI may take to play a whole three-player game."""


@contextlib.contextmanager
def worker(store: GameStore) -> Iterator[OnlineHub]:
    """A worker's hub on ``store``, its seat thread running (a scan every 0.5 s)."""
    hub = OnlineHub(
        store,
        OnlineStore(store.engine),
        LocalBus(),
        ThreadPoolExecutor(2),
        ai_budget=0.2,
        scan=0.5,
        quotas=quota(),
    )
    hub.start()
    try:
        yield hub
    finally:
        hub.close()


def _started(hub: OnlineHub) -> tuple[PlayerInfo, LobbyInfo]:
    """A started three-player game whose one person (the host) is away."""
    [host] = people(hub, "Ana")
    lobby, _ = hub.create_lobby(
        host,
        name="Ana's table",
        players=3,
        host_house=houses(3)[0],
        ai_level="baseline",
        grace_seconds=0,
    )
    return host, hub.start_game(lobby.id, host)


def _won(store: GameStore, game_id: str) -> str | None:
    return store.game(game_id).winner


def _rated(hub: OnlineHub, host: PlayerInfo, game_id: str) -> bool:
    return any(game.game_id == game_id for game in ratings.profile(hub.online, host.id).history)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_lobby_the_store_failed_to_mark_finished_is_marked_by_the_next_scan(
    kind: str, tmp_path: Path
) -> None:
    with race_store(kind, tmp_path) as store, worker(store) as hub:
        marks: list[str] = []
        mark = hub.online.mark_finished

        def failing_once(lobby_id: str) -> None:
            marks.append(lobby_id)
            if len(marks) == 1:
                print(f"injected: the store drops its connection as lobby {lobby_id} is marked")
                raise OperationalError("UPDATE online_lobby", {}, ConnectionError("closed"))
            mark(lobby_id)

        hub.online.mark_finished = failing_once
        host, lobby = _started(hub)
        assert lobby.game_id is not None
        winner = wait_for(lambda: _won(store, lobby.game_id or ""), timeout=GAME_S, step=0.5)
        print(f"{winner} won; lobby marks tried so far: {len(marks)}")
        wait_for(lambda: hub.online.lobby(lobby.id).status == FINISHED, timeout=30)
        print(f"lobby finished after {len(marks)} tries")
        assert len(marks) >= 2 and set(marks) == {lobby.id}
        assert _rated(hub, host, lobby.game_id), "the ended game is in its person's history"
        assert lobby.game_id not in hub.online.running_games()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_game_whose_worker_stopped_before_marking_its_end_is_finished_by_another(
    kind: str, tmp_path: Path
) -> None:
    with race_store(kind, tmp_path) as store:
        ended = threading.Event()
        with worker(store) as first:

            def stops_here(lobby_id: str, game_id: str, state: Any) -> None:
                if not ended.is_set():
                    print(f"injected: the worker stops after storing {game_id}'s winning action")
                ended.set()

            first._game_over = stops_here
            host, lobby = _started(first)
            assert lobby.game_id is not None
            assert ended.wait(GAME_S), "the game ended on the first worker"
        left = OnlineStore(store.engine).lobby(lobby.id)
        print(f"left behind: lobby {left.status}, winner {_won(store, lobby.game_id)}")
        assert left.status == RUNNING and _won(store, lobby.game_id) is not None
        with worker(store) as second:
            assert not _rated(second, host, lobby.game_id)
            wait_for(lambda: second.online.lobby(lobby.id).status == FINISHED, timeout=30)
            wait_for(lambda: _rated(second, host, lobby.game_id or ""), timeout=30)
            standings = ratings.result(store.load_game(lobby.game_id).state)
            assert standings is not None
            assert not ratings.record_game(second.online, lobby.id, lobby.game_id, standings)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_game_the_ratings_failed_to_record_is_rated_before_its_lobby_is_marked(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database fails as the ended game is rated: the lobby stays running (a finished
    lobby is never looked at again, so marking it would lose the rating for good), and the
    next scan rates the game, once, and then marks its lobby."""
    with race_store(kind, tmp_path) as store, worker(store) as hub:
        records: list[str] = []
        record = ratings.record_game

        def failing_once(online: Any, lobby_id: str, game_id: str, standings: Any) -> bool:
            records.append(game_id)
            if len(records) == 1:
                print(f"injected: the store drops its connection as game {game_id} is rated")
                raise OperationalError("INSERT INTO rated_game", {}, ConnectionError("closed"))
            return record(online, lobby_id, game_id, standings)

        rated_when_marked: list[bool] = []
        mark = hub.online.mark_finished

        def marking(lobby_id: str) -> None:
            rated_when_marked.append(_rated(hub, host, game_id))
            mark(lobby_id)

        monkeypatch.setattr(ratings, "record_game", failing_once)
        hub.online.mark_finished = marking
        host, lobby = _started(hub)
        game_id = lobby.game_id or ""
        winner = wait_for(lambda: _won(store, game_id), timeout=GAME_S, step=0.5)
        wait_for(lambda: hub.online.lobby(lobby.id).status == FINISHED, timeout=30)
        print(f"{winner} won; rated after {len(records)} tries; marks: {rated_when_marked}")
        assert len(records) >= 2, "the failed rating was tried again"
        assert rated_when_marked == [True], "the lobby was marked once, after the rating"
        assert _rated(hub, host, game_id)
        standings = ratings.result(store.load_game(game_id).state)
        assert standings is not None
        assert not ratings.record_game(hub.online, lobby.id, game_id, standings), "rated once"
