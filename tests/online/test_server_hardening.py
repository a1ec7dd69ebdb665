"""The online server's sockets under bad input, floods and a failing database (issue 35
findings 9, 12 and 17; docs/online.md "Limits"): each refusal has its own code and the
socket, the game and the chat are otherwise unchanged."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.websockets import WebSocket, WebSocketDisconnect

from .helpers import Player, receive_until, start_game

TOO_MANY_SOCKETS = 4429
TRY_AGAIN_LATER = 1013


def _person(app: Any, name: str) -> Player:
    client = TestClient(app)
    data = client.post("/api/players", json={"name": name}).json()
    return Player(name, data["key"], data["id"], client)


def _rename(app: Any, table: str, to: str) -> None:
    """Fault injection: rename a table of the server's database under it."""
    with app.state.online.store.engine.begin() as db:
        db.execute(sa.text(f"ALTER TABLE {table} RENAME TO {to}"))


def test_a_database_error_on_a_chat_message_is_answered_not_saved_and_the_socket_stays(
    online_app: Any, player: Any
) -> None:
    """Issue 35 finding 9 (M6), socket side: the database fails while a chat line is stored —
    the socket is answered ``not-saved`` (no dropped socket, no traceback), and the same line
    sent again once the database is back is stored and delivered on the same socket."""
    alice = player("Alice")
    lobby = start_game(alice, [])
    with alice.client.websocket_connect(f"/ws/lobbies/{lobby['id']}") as ws:
        ws.receive_json()  # roster; the stored chat is read next, before any message is
        ws.send_json({"type": "hello"})  # handled: this refusal says that read is done
        assert receive_until(ws, lambda m: m["type"] in ("error", "chat"))["type"] == "error"
        _rename(online_app, "chat_messages", "chat_messages_away")
        print("injected: table chat_messages renamed away while a chat line is sent")
        ws.send_json({"type": "chat", "text": "hello", "id": 1})
        refused = receive_until(ws, lambda m: m["type"] in ("error", "chat"))
        _rename(online_app, "chat_messages_away", "chat_messages")
        ws.send_json({"type": "chat", "text": "hello", "id": 2})
        stored = receive_until(ws, lambda m: m["type"] in ("error", "chat"))
    assert (refused["type"], refused["code"], refused["in_reply_to"]) == ("error", "not-saved", 1)
    assert (stored["type"], stored["text"]) == ("chat", "hello")
    lines = online_app.state.online.online.chat(lobby["id"], None)
    assert [line.text for line in lines] == ["hello"]


def test_a_database_error_while_a_socket_opens_is_answered_unavailable_and_closed_1013(
    online_app: Any, player: Any
) -> None:
    """Issue 35 finding 9 (M6), socket side: the database fails while a lobby socket opens —
    the client is told ``online/unavailable`` and the socket closed with 1013 (try again
    later); once the database is back the same socket opens."""
    alice = player("Alice")
    lobby = start_game(alice, [])
    _rename(online_app, "online_lobbies", "online_lobbies_away")
    print("injected: table online_lobbies renamed away while a lobby socket opens")
    try:
        with alice.client.websocket_connect(f"/ws/lobbies/{lobby['id']}") as ws:
            told = ws.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
    finally:
        _rename(online_app, "online_lobbies_away", "online_lobbies")
    assert told["code"] == "online/unavailable"
    assert closed.value.code == TRY_AGAIN_LATER
    with alice.client.websocket_connect(f"/ws/lobbies/{lobby['id']}") as ws:
        assert ws.receive_json()["type"] == "roster"


def test_deeply_nested_json_mentioning_chat_is_refused_and_the_socket_stays_open(
    online_app: Any, player: Any
) -> None:
    """Issue 35 finding 17: nested JSON under 4 KB containing "chat" raised RecursionError
    and closed the socket without a frame; now it is refused (``malformed/too-deep``) and the
    socket still takes chat."""
    alice = player("Alice")
    lobby = start_game(alice, [])
    nested = '{"type": "chat", "text": ' + "[" * 1900 + "]" * 1900 + "}"
    assert len(nested) < 4096
    with alice.client.websocket_connect(f"/ws/lobbies/{lobby['id']}") as ws:
        ws.receive_json()  # roster
        ws.send_text(nested)
        refused = ws.receive_json()
        ws.send_json({"type": "chat", "text": "still here"})
        line = receive_until(ws, lambda m: m["type"] == "chat")
    assert refused["code"] == "malformed/too-deep"
    assert line["text"] == "still here"


def test_a_spectators_chat_on_watch_reaches_the_watch_socket_itself(
    online_app: Any, player: Any
) -> None:
    """Issue 35 finding 17: a ``/watch`` socket could write chat it never received; now the
    public chat (its own line included) is delivered to the spectators' socket."""
    alice = player("Alice")
    lobby = start_game(alice, [])
    spectator = TestClient(online_app)
    with spectator.websocket_connect(f"/ws/games/{lobby['game_id']}/watch") as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_json({"type": "chat", "text": "nice move"})
        ws.send_json({"type": "ping"})
        first = receive_until(ws, lambda m: m["type"] in ("chat", "error"))
    assert (first["type"], first["text"], first["house"]) == ("chat", "nice move", None)


def test_a_socket_over_its_message_rate_is_refused_rate_limited(limited: Any) -> None:
    """Issue 35 finding 17 (and 12): no per-socket message rate limit — now a socket may send
    ``message_burst`` messages at once and then ``messages_per_second``; the rest are answered
    ``online/rate-limited`` and not handled."""
    app = limited(message_burst=5, messages_per_second=0.001)
    alice = _person(app, "Alice")
    lobby = start_game(alice, [])
    with alice.client.websocket_connect(f"/ws/games/{lobby['game_id']}/seats/stark") as ws:
        receive_until(ws, lambda m: m["type"] == "view")
        for n in range(8):
            ws.send_json({"type": "ping", "id": n})
        replies = [receive_until(ws, lambda m: m["type"] in ("pong", "error")) for _ in range(8)]
    kinds = [r.get("code") or r["type"] for r in replies]
    assert kinds == ["pong"] * 5 + ["online/rate-limited"] * 3


def test_sockets_over_the_per_key_limit_are_refused_too_many(limited: Any) -> None:
    """Issue 35 finding 12 (H3): nothing bounded the sockets one client held — now a key may
    hold ``sockets_per_key`` open sockets; the next is told ``online/too-many-sockets`` and
    closed with 4429, and once one closes another may open."""
    app = limited(sockets_per_key=2, sockets_per_address=0)
    alice = _person(app, "Alice")
    lobby = start_game(alice, [])
    path = f"/ws/lobbies/{lobby['id']}"
    with alice.client.websocket_connect(path) as one, alice.client.websocket_connect(path) as two:
        assert one.receive_json()["type"] == two.receive_json()["type"] == "roster"
        with alice.client.websocket_connect(path) as three:
            told = three.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                three.receive_json()
    with alice.client.websocket_connect(path) as again:
        assert again.receive_json()["type"] == "roster"
    assert told["code"] == "online/too-many-sockets"
    assert closed.value.code == TOO_MANY_SOCKETS


def test_sockets_over_the_per_address_limit_are_refused_too_many(limited: Any) -> None:
    """Issue 35 finding 12 (H3): 300 anonymous ``/watch`` sockets from one place were all
    served — now an address may hold ``sockets_per_address``; the next spectator is refused."""
    app = limited(sockets_per_address=3)
    alice = _person(app, "Alice")
    lobby = start_game(alice, [])
    spectator = TestClient(app)
    path = f"/ws/games/{lobby['game_id']}/watch"
    with (
        spectator.websocket_connect(path) as a,
        spectator.websocket_connect(path) as b,
        spectator.websocket_connect(path) as c,
    ):
        assert {a.receive_json()["type"], b.receive_json()["type"], c.receive_json()["type"]} == {
            "view"
        }
        with spectator.websocket_connect(path) as d:
            told = d.receive_json()
    assert told["code"] == "online/too-many-sockets"


def test_every_response_carries_the_security_headers(online_app: Any, player: Any) -> None:
    """Issue 35 finding 17: the online server sent no CSP, X-Frame-Options or nosniff — now
    every page, API answer, file and refusal carries them, and the Referrer-Policy stays
    ``no-referrer``."""
    alice = player("Alice")
    lobby = start_game(alice, [])
    stranger = TestClient(online_app)
    responses = [
        stranger.get("/"),
        stranger.get(f"/lobbies/{lobby['id']}"),
        stranger.get("/api/lobbies"),
        stranger.get("/static/js/online/lobby.js"),
        stranger.get(f"/games/{lobby['game_id']}/replay"),  # refused while it runs
        stranger.post("/api/lobbies", json={"players": 3}),  # no key
        stranger.post("/api/lobbies", json={}, headers={"origin": "http://evil.example"}),
    ]
    assert [r.status_code for r in responses] == [200, 200, 200, 200, 403, 401, 403]
    for response in responses:
        policy = response.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "'unsafe-inline'" not in policy
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"


def test_the_creator_stops_an_all_ai_game_through_the_api(online_app: Any, player: Any) -> None:
    """Issue 35 finding 11 (M4), its route: ``POST /api/lobbies/{id}/stop`` — another key is
    refused, the key that created a game without people stops it and the lobby is finished."""
    alice, mallory = player("Alice"), player("Mallory")
    made = alice.post("/api/lobbies", {"players": 3, "house": None, "ai_level": "baseline"})
    lobby_id = made.json()["lobby"]["id"]
    assert alice.post(f"/api/lobbies/{lobby_id}/start").status_code == 200
    refused = mallory.post(f"/api/lobbies/{lobby_id}/stop")
    stopped = alice.post(f"/api/lobbies/{lobby_id}/stop")
    assert refused.status_code == 403
    assert (stopped.status_code, stopped.json()["lobby"]["status"]) == (200, "finished")


class _StalledPeer:
    """A socket whose peer has stopped reading: every send waits for ever (as uvicorn's does
    once the connection's buffers are full); what was sent and how it was closed are kept."""

    client = None

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: list[int] = []
        self.stalled = False
        self.got_one = asyncio.Event()

    async def send_text(self, text: str) -> None:
        if self.stalled:
            await asyncio.Event().wait()
        self.sent.append(text)
        self.got_one.set()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed.append(code)


@pytest.mark.parametrize("how", ["queue", "timeout"])
def test_a_socket_that_stops_reading_is_closed_too_slow_and_its_queue_dropped(how: str) -> None:
    """Issue 35 finding 12 (H3): a socket's queue was unbounded and a send never timed out —
    now a socket whose peer stops reading is closed with 4408 once ``send_queue`` messages
    wait (``queue``) or one send waits ``send_timeout`` (``timeout``), and nothing more is
    sent on it."""
    from westeros.online.limits import CLOSE_TOO_SLOW, Limits
    from westeros.online.sockets import Outbox

    async def run() -> _StalledPeer:
        peer = _StalledPeer()
        limits = Limits(send_queue=5, send_timeout=60.0 if how == "queue" else 0.2)
        out = Outbox(cast(WebSocket, peer), limits)
        out.deliver({"type": "view", "n": 0})
        await asyncio.wait_for(peer.got_one.wait(), 30)  # read, then it stops reading
        peer.stalled = True
        sent = 1 + (5 if how == "queue" else 0)
        for n in range(1, sent + 1):
            out.deliver({"type": "view", "n": n})
        await asyncio.wait_for(out.gone.wait(), 30)
        for n in range(100):
            out.deliver({"type": "view", "n": 100 + n})
        await out.finish()
        return peer

    # a loop of its own in a thread: a browser test's sync Playwright may run one in this one
    with ThreadPoolExecutor(1) as thread:
        peer = thread.submit(asyncio.run, run()).result()
    print(f"injected: a peer that stops reading after one message ({how})")
    assert len(peer.sent) == 1
    assert peer.closed == [CLOSE_TOO_SLOW]


@pytest.mark.parametrize(
    "argument, said",
    [
        (["--send-queue", "0"], "--send-queue (WESTEROS_SEND_QUEUE) must be above 0, not 0"),
        (
            ["--sockets-per-key", "x"],
            "--sockets-per-key (WESTEROS_SOCKETS_PER_KEY) must be a whole",
        ),
        (
            ["--http-request-burst", "0"],
            "--http-request-burst (WESTEROS_HTTP_REQUEST_BURST) must be above 0, not 0",
        ),
        (["--log-level", "loud"], "invalid choice: 'loud'"),
    ],
)
def test_a_limit_set_wrong_stops_westeros_server_with_the_reason(
    argument: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 35 finding 12 (H3): each limit has a setting — one that cannot work stops
    ``westeros server`` before it listens (exit code 2), naming the option and its
    environment variable."""
    from westeros.cli import main

    try:
        code = main(["server", *argument])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    assert code == 2
    assert said in capsys.readouterr().err
