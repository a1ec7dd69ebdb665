"""The seat window across workers (issue 35 finding 5, docs/online.md "Seats"): a seat
changed through worker A is checked by the writer of every action, on every worker, under
the game's writer lock, so an action from the old holder's board socket on worker B is
refused even while the bus's ``seat`` message has not reached B yet. Two hubs share one
SQLite file or PostgreSQL schema and one Redis database, as two ``westeros server`` workers
would; B's bus holds every ``seat`` message back until the test lets it go (the injected
delay is printed)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, func, select

from westeros.online.bus import Handler, LocalBus, RedisBus
from westeros.online.hub import OnlineHub
from westeros.online.records import LobbyInfo, PlayerInfo
from westeros.online.store import OnlineStore
from westeros.store.models import ActionRecord

from .helpers import decide, wait_for
from .seat_helpers import race_store, redis_or_skip, two_hubs

HOLD_AT_MOST_S = 30.0


class SeatMessagesHeld(RedisBus):
    """A RedisBus whose listener, once ``hold`` is set, holds every ``seat`` message (and so
    every later message) until ``release`` is set: the fault injected, that message reaches
    this worker late."""

    def __init__(self, url: str, prefix: str) -> None:
        super().__init__(url, prefix)
        self.hold = threading.Event()
        self.release = threading.Event()
        self.seen = 0  # seat messages that reached the listener
        self.arrived = 0  # of those, held
        self.held: list[float] = []  # seconds each seat message was held, once let go

    def listen(self, handler: Handler) -> None:
        def late(game: str, message: dict[str, Any]) -> None:
            if message.get("kind") == "seat":
                self.seen += 1
            if message.get("kind") == "seat" and self.hold.is_set():
                started = time.monotonic()
                self.arrived += 1
                self.release.wait(HOLD_AT_MOST_S)
                self.held.append(time.monotonic() - started)
            handler(game, message)

        super().listen(late)


@pytest.fixture(params=["sqlite", "postgresql"])
def two_workers(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[OnlineHub, OnlineHub, SeatMessagesHeld]]:
    url = redis_or_skip()
    with (
        race_store(request.param, tmp_path) as store,
        two_hubs(store, url, "seat-window", SeatMessagesHeld) as (a, b),
    ):
        late = b.bus
        assert isinstance(late, SeatMessagesHeld)
        yield a, b, late
        late.release.set()


def _stored_actions(hub: OnlineHub, game_id: str) -> int:
    with Session(hub.store.engine) as db:
        return db.exec(
            select(func.count()).select_from(ActionRecord).where(ActionRecord.game_id == game_id)
        ).one()


def _alice_plays_lannister(
    hub: OnlineHub, host: PlayerInfo, alice: PlayerInfo
) -> tuple[LobbyInfo, str]:
    """A running 3-player game: the host plays Stark, Alice Lannister, the AI the rest."""
    lobby, _ = hub.create_lobby(
        host,
        name="The window",
        players=3,
        host_house="stark",
        open_houses=["stark", "lannister"],
        ai_level="baseline",
    )
    hub.take(lobby.id, alice, "lannister")
    hub.ready(lobby.id, alice, True)
    game_id = hub.start_game(lobby.id, host).game_id
    assert game_id is not None
    return lobby, game_id


def _orders(view: dict[str, Any], message_id: str) -> dict[str, Any]:
    return {
        "type": "action",
        "id": message_id,
        "action": decide(view["view"]),
        "state_id": view["state_id"],
    }


def test_an_old_holder_s_action_on_a_worker_that_has_not_heard_of_the_seat_change_is_refused(
    two_workers: tuple[OnlineHub, OnlineHub, SeatMessagesHeld],
) -> None:
    """Issue 35 finding 5 (M1): Alice plays Lannister with her board socket on worker B. Through
    worker A the host hands Lannister back and Carol joins it by invite; B's bus holds both
    ``seat`` messages back. Alice's Lannister orders sent through B in that window are refused
    ``online/not-your-seat`` and nothing is stored; once B hears of the change, Carol's
    orders through B are taken."""
    a, b, late = two_workers
    host, alice, carol = (a.online.register(name)[0] for name in ("Hal", "Alice", "Carol"))
    lobby, game_id = _alice_plays_lannister(a, host, alice)
    on_b, _ = b.open_seat(game_id, "lannister", alice)
    alice_view = on_b.view_message("lannister")
    assert alice_view["view"]["prompt"] is not None

    wait_for(lambda: late.seen, timeout=10)  # Alice's take reached B in time
    late.hold.set()
    _, token = a.hand_back(lobby.id, host, "lannister")
    a.join(token, carol)
    wait_for(lambda: late.arrived, timeout=10)  # B's bus has the hand-back's, held
    reply = on_b.handle("lannister", _orders(alice_view, "in-the-window"), alice.id)
    late.release.set()
    print(
        "injected: worker B's bus held the seat message(s) back; Alice's orders through B "
        f"were answered {reply.get('type')} {reply.get('code')!r} while it was held"
    )
    assert reply["type"] == "error", reply
    assert reply["code"] == "online/not-your-seat"
    assert _stored_actions(a, game_id) == 0
    assert on_b.serial == 0

    wait_for(lambda: len(late.held) == 2, timeout=10)
    print("injected delays of the seat messages to worker B (s):", [round(d, 3) for d in late.held])
    wait_for(lambda: getattr(on_b.players["lannister"], "credential", None) is None, timeout=10)
    b.open_seat(game_id, "lannister", carol)
    carol_view = on_b.view_message("lannister")
    accepted = on_b.handle("lannister", _orders(carol_view, "carol"), carol.id)
    assert accepted["type"] == "accepted", accepted
    assert _stored_actions(a, game_id) == 1


@pytest.fixture(params=["sqlite", "postgresql"])
def one_worker(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[OnlineHub]:
    """One hub whose seat thread never runs: nothing but the writer's own check can refuse."""
    with race_store(request.param, tmp_path) as store:
        pool = ThreadPoolExecutor(1)
        hub = OnlineHub(store, OnlineStore(store.engine), LocalBus(), pool)
        yield hub
        hub.close()
        pool.shutdown()


def test_a_person_s_action_in_a_game_an_operator_stopped_is_refused_before_any_scan(
    one_worker: OnlineHub,
) -> None:
    """Issue 35 finding 11 (M4) with finding 5: an operator stops a running game from outside
    the server (``OnlineStore.stop``, another process). Alice's orders sent before this worker's
    seat thread has seen the stop are refused by the writer's check of the seat's holder
    (``online/not-your-seat``), and nothing is stored."""
    hub = one_worker
    host, alice = (hub.online.register(name)[0] for name in ("Hal", "Alice"))
    lobby, game_id = _alice_plays_lannister(hub, host, alice)
    session, _ = hub.open_seat(game_id, "lannister", alice)
    view = session.view_message("lannister")
    assert view["view"]["prompt"] is not None
    OnlineStore(hub.store.engine).stop(lobby.id)
    reply = session.handle("lannister", _orders(view, "after-the-stop"), alice.id)
    print(f"injected: the game stopped from outside; Alice's orders were answered {reply}")
    assert reply.get("type") == "error"
    assert reply.get("code") == "online/not-your-seat"
    assert _stored_actions(hub, game_id) == 0
