"""Server fixtures: the real app (real engine, real SQLite store in tmp_path, real WebSockets
through Starlette's TestClient), addressed as the desktop shell addresses it."""

from __future__ import annotations

import concurrent.futures
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from westeros.ai import BaselineBot, RandomBot
from westeros.engine.flow import random_action
from westeros.engine.planning import PlaceOrders
from westeros.server import create_app
from westeros.server.games import Games
from westeros.server.security import token_cookie
from westeros.session import AiPlayer, GameSession
from westeros.store import SeatSpec

TOKEN = "test-launch-token-0123456789"
PORT = 8765
COOKIE = token_cookie(PORT)
BASE = f"http://127.0.0.1:{PORT}"
WS_BASE = f"ws://127.0.0.1:{PORT}"
RECEIVE_TIMEOUT_S = 30.0


@pytest.fixture(autouse=True)
def _no_installed_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Server tests never see plugins installed on the machine, nor its database setting."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)


def random_bots(house: str, seat: SeatSpec) -> AiPlayer:
    """AI seats that answer uniformly at random from their prompt (westeros.ai.RandomBot)."""
    return RandomBot(seed=sum(map(ord, house)))


def baseline_bots(house: str, seat: SeatSpec) -> AiPlayer:
    """The game's own AI, seeded per house so that runs repeat."""
    return BaselineBot(seed=sum(map(ord, house)))


@pytest.fixture
def store_url(tmp_path: Path) -> str:
    """A fresh SQLite database file."""
    return f"sqlite:///{tmp_path / 'westeros.db'}"


@pytest.fixture
def make_app(store_url: str) -> Callable[..., FastAPI]:
    """``make_app(**kwargs)``: the local core on port PORT with the test token."""

    def make(**kwargs: Any) -> FastAPI:
        kwargs.setdefault("ai_factory", random_bots)
        return create_app(token=TOKEN, store_url=store_url, port=PORT, **kwargs)

    return make


@pytest.fixture
def app(make_app: Callable[..., FastAPI]) -> FastAPI:
    """The local core with random AI seats."""
    return make_app()


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """A client that already holds the token cookie (as the page does after its first load)."""
    with TestClient(app, base_url=BASE, follow_redirects=False) as c:
        c.cookies.set(COOKIE, TOKEN)
        yield c


@pytest.fixture
def games(app: FastAPI) -> Games:
    """The app's game registry."""
    registry: Games = app.state.games
    return registry


def seat_url(game_id: str, house: str, **query: str) -> str:
    """The WebSocket address of one seat."""
    suffix = "&".join(f"{k}={v}" for k, v in query.items())
    return f"{WS_BASE}/ws/games/{game_id}/seats/{house}" + (f"?{suffix}" if suffix else "")


_receiver = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="receive")


def receive(ws: WebSocketTestSession, timeout: float = RECEIVE_TIMEOUT_S) -> dict[str, Any]:
    """The next message of ``ws``; fails the test instead of hanging when none comes."""
    global _receiver
    try:
        message: dict[str, Any] = _receiver.submit(ws.receive_json).result(timeout=timeout)
    except concurrent.futures.TimeoutError:
        _receiver.shutdown(wait=False)  # its thread still waits; later tests get a new one
        _receiver = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="receive")
        pytest.fail(f"no message within {timeout} s")
    return message


def taken(ws: WebSocketTestSession) -> dict[str, Any]:
    """The ``view`` a sender receives once its action is taken, checked to be followed by the
    ``accepted`` reply for the same state (docs/protocol.md); returns the view."""
    view, answer = receive(ws), receive(ws)
    assert (view["type"], answer["type"]) == ("view", "accepted"), (view, answer)
    assert answer["state_id"] == view["state_id"], (view, answer)
    return view


def nothing_pending(ws: WebSocketTestSession) -> None:
    """Assert that ``ws`` has received nothing since its last read: a ping must be answered
    by the very next message (messages to one seat are delivered in order)."""
    ws.send_json({"type": "ping", "id": "probe"})
    message = receive(ws)
    assert (message["type"], message["in_reply_to"]) == ("pong", "probe"), message


@pytest.fixture
def game(games: Games) -> GameSession:
    """A 3-player game (2.1: Baratheon, Lannister, Stark) where Stark and Lannister are people
    and Baratheon's AI has not started, so nothing moves unless a test says so."""
    return games.create(players=3, human="stark", humans=("lannister",), seed=7, start_ai=False)


@pytest.fixture
def seats(
    client: TestClient, game: GameSession
) -> Iterator[tuple[WebSocketTestSession, WebSocketTestSession]]:
    """Stark's socket and Lannister's, each past its first view."""
    with (
        client.websocket_connect(seat_url(game.game_id, "stark")) as stark,
        client.websocket_connect(seat_url(game.game_id, "lannister")) as lannister,
    ):
        assert receive(stark)["type"] == receive(lannister)["type"] == "view"
        yield stark, lannister


def orders_for(game: GameSession, house: str, seed: int = 0) -> dict[str, Any]:
    """A legal placement for ``house`` (4.1-4.3) as action JSON."""
    action = random_action(game.state, house, random.Random(seed))
    assert isinstance(action, PlaceOrders)
    return action.to_json()


def refused(
    ws: WebSocketTestSession, other: WebSocketTestSession, game: GameSession, message: Any
) -> dict[str, Any]:
    """Send ``message``; return the error reply after checking that nothing else changed:
    the state (hash), the stored log, and the other seat (which received nothing)."""
    before = (game.state.hash(), game.store.game(game.game_id).action_count)
    if isinstance(message, bytes):
        ws.send_bytes(message)
    elif isinstance(message, str):
        ws.send_text(message)
    else:
        ws.send_json(message)
    reply = receive(ws)
    assert reply["type"] == "error", reply
    assert set(reply) == {"type", "code", "message", "rule", "in_reply_to"}
    assert reply["message"]
    assert (game.state.hash(), game.store.game(game.game_id).action_count) == before
    nothing_pending(other)
    nothing_pending(ws)
    return reply


def engine_refusal(reply: dict[str, Any]) -> bool:
    """Was the reply the engine's refusal (a rule, not the protocol)? Engine codes are
    "illegal/<what>" (engine/errors.py names each); the session's never start so."""
    return reply["code"].startswith("illegal/") and bool(reply["rule"])
