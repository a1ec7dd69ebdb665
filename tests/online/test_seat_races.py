"""Seat races (issue 35 finding 13, docs/online.md "Seats"): a seat, an invite and the start
of a lobby are each given once however many requests arrive at once, on SQLite and on
PostgreSQL. The race window is widened on purpose: every read of the seats or lobbies by a
racing thread is followed by a pause (printed), as a slow database would do."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from westeros.online.bus import LocalBus
from westeros.online.hub import OnlineHub
from westeros.online.quotas import KeyQuotas
from westeros.online.records import PlayerInfo
from westeros.online.store import OnlineStore
from westeros.store import GameStore

from .seat_helpers import SlowReads, race, race_store

RACERS = 4
TRIALS = 4
HOUSES = ("baratheon", "lannister", "stark")


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    """A game store on a SQLite file (WAL, as the app opens it) or a fresh PostgreSQL schema."""
    with race_store(request.param, tmp_path) as opened:
        yield opened


def _people(online: OnlineStore, n: int) -> list[PlayerInfo]:
    return [online.register(f"P{i}")[0] for i in range(n)]


def _lobby(online: OnlineStore, host: PlayerInfo) -> tuple[str, dict[str, str]]:
    lobby, invites = online.create_lobby(
        host,
        name="Race",
        players=3,
        houses=HOUSES,
        open_houses=HOUSES,
        settings={"options": {}, "disable": [], "ai_level": "baseline"},
    )
    return lobby.id, invites


def _join(online: OnlineStore, token: str, player: PlayerInfo) -> str:
    return online.join_by_invite(token, player)[1]


def _take(online: OnlineStore, lobby_id: str, player: PlayerInfo) -> str:
    online.take_seat(lobby_id, player, "lannister")
    return player.id


def test_a_one_time_invite_used_by_four_players_at_once_is_accepted_once(
    store: GameStore,
) -> None:
    """Issue 35 finding 13 (M2): four players post the same invite at once; one gets the
    seat, the three others a clear "not valid" refusal, and the seat holds the winner."""
    online = OnlineStore(store.engine)
    with SlowReads(store.engine) as slow:
        for trial in range(TRIALS):
            host, *players = _people(online, RACERS + 1)
            lobby_id, invites = _lobby(online, host)
            token = invites["lannister"]
            won, lost = race([functools.partial(_join, online, token, p) for p in players])
            holder = online.lobby(lobby_id).seat("lannister")
            print(
                f"{store.engine.dialect.name} trial {trial}: {RACERS} joins with one invite "
                f"at once, {slow.paused} reads paused {slow.pause}s so far: accepted {len(won)}, "
                f"refused {len(lost)}"
            )
            assert len(won) == 1 and won == ["lannister"]
            assert {e.code for e in lost} == {"online/bad-invite"}
            assert holder is not None and holder.player_id in {p.id for p in players}


def test_four_players_taking_one_seat_at_once_give_one_winner(store: GameStore) -> None:
    """Issue 35 finding 13 (M2): four players take Lannister at once; exactly one is told
    "you took lannister", and the seat is that player's."""
    online = OnlineStore(store.engine)
    with SlowReads(store.engine) as slow:
        for trial in range(TRIALS):
            host, *players = _people(online, RACERS + 1)
            lobby_id, _ = _lobby(online, host)
            won, lost = race([functools.partial(_take, online, lobby_id, p) for p in players])
            holder = online.lobby(lobby_id).seat("lannister")
            print(
                f"{store.engine.dialect.name} trial {trial}: {RACERS} takes of one seat at "
                f"once, {slow.paused} reads paused so far: accepted {len(won)}, "
                f"refused {len(lost)}"
            )
            assert len(won) == 1 and {e.code for e in lost} == {"online/lobby-state"}
            assert holder is not None and [holder.player_id] == won


def test_a_lobby_started_by_four_requests_at_once_makes_exactly_one_game(
    store: GameStore,
) -> None:
    """Issue 35 finding 13 (M2): the host's start arrives four times at once; exactly one
    game is created and named by the lobby, no orphan game is left, the others are refused."""
    online = OnlineStore(store.engine)
    hub = OnlineHub(store, online, LocalBus(), ThreadPoolExecutor(1), quotas=KeyQuotas(0, 0, 0))
    try:
        with SlowReads(store.engine) as slow:
            for trial in range(TRIALS):
                (host,) = _people(online, 1)
                lobby_id, _ = _lobby(online, host)
                before = {g.id for g in store.list_games()}
                start = functools.partial(hub.start_game, lobby_id, host)
                won, lost = race([start] * RACERS)
                made = {g.id for g in store.list_games()} - before
                print(
                    f"{store.engine.dialect.name} trial {trial}: {RACERS} starts at once, "
                    f"{slow.paused} reads paused so far: accepted {len(won)}, "
                    f"refused {len(lost)}, games created {len(made)}"
                )
                assert len(won) == 1 and {e.code for e in lost} == {"online/lobby-state"}
                assert made == {online.lobby(lobby_id).game_id}
    finally:
        hub.close()
