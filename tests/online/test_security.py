"""Refusals (docs/online.md, RULES.md 0.4.4): another seat's key, no key, a forged invite,
oversized and flooding chat, a spectator's actions, a cross-origin socket — each refused with
its own error code, and nothing changes (the game's state, its log and its chat)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from westeros.online.chat import BURST, MAX_CHARS

from .helpers import Player, decide, receive_until, start_game


def _game(online_app: Any, game_id: str) -> tuple[int, int]:
    store = online_app.state.online.store
    return store.game(game_id).action_count, store.load_game(game_id).state.serial


def _chat_count(online_app: Any, lobby_id: str) -> int:
    return len(online_app.state.online.online.chat(lobby_id, "stark")) + len(
        online_app.state.online.online.chat(lobby_id, "lannister")
    )


@pytest.fixture
def table(player: Any) -> tuple[Player, Player, dict[str, Any]]:
    alice, bob = player("Alice"), player("Bob")
    return alice, bob, start_game(alice, [(bob, "lannister")])


def test_a_seat_refuses_another_players_key(online_app: Any, table: Any) -> None:
    alice, _, lobby = table
    before = _game(online_app, lobby["game_id"])
    with alice.client.websocket_connect(f"/ws/games/{lobby['game_id']}/seats/lannister") as ws:
        reply = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert reply["code"] == "online/not-your-seat"
    assert closed.value.code == 4403
    assert _game(online_app, lobby["game_id"]) == before


def test_a_seat_refuses_a_socket_without_a_key(online_app: Any, table: Any) -> None:
    _, _, lobby = table
    stranger = TestClient(online_app)
    with stranger.websocket_connect(f"/ws/games/{lobby['game_id']}/seats/stark") as ws:
        assert ws.receive_json()["code"] == "online/unknown-player"
    assert stranger.post("/api/lobbies", json={"players": 3}).json()["code"] == (
        "online/unknown-player"
    )


def test_an_action_for_another_house_on_ones_own_socket_is_refused(
    online_app: Any, table: Any
) -> None:
    alice, _, lobby = table
    game_id = lobby["game_id"]
    before = _game(online_app, game_id)
    with alice.client.websocket_connect(f"/ws/games/{game_id}/seats/stark") as ws:
        view = ws.receive_json()
        action = decide(view["view"])
        ws.send_json(
            {"type": "action", "house": "lannister", "action": action, "state_id": view["state_id"]}
        )
        reply = receive_until(ws, lambda m: m["type"] == "error")
    assert reply["code"] == "seat/other-house"
    assert _game(online_app, game_id) == before


def test_a_forged_invite_is_refused(table: Any, player: Any) -> None:
    cara = player("Cara")
    reply = cara.post("/api/join", {"invite": "forged-" + "x" * 40})
    assert reply.status_code == 403
    assert reply.json()["code"] == "online/bad-invite"


def test_spectators_cannot_act(online_app: Any, table: Any) -> None:
    alice, _, lobby = table
    game_id = lobby["game_id"]
    before = _game(online_app, game_id)
    with alice.client.websocket_connect(f"/ws/games/{game_id}/seats/stark") as seat:
        own = seat.receive_json()
    spectator = TestClient(online_app)
    with spectator.websocket_connect(f"/ws/games/{game_id}/watch") as ws:
        view = ws.receive_json()
        assert view["house"] is None and view["view"]["prompt"] is None
        for kind in ("action", "hint"):
            ws.send_json({"type": kind, "action": decide(own["view"]), "state_id": own["state_id"]})
            answer = ws.receive_json()
            while answer["type"] == "voice":  # the table voice's state, sent as a socket opens
                answer = ws.receive_json()
            assert answer["code"] == "online/spectator-cannot-act"
    assert _game(online_app, game_id) == before


def test_oversized_chat_is_refused_and_not_stored(online_app: Any, table: Any) -> None:
    alice, _, lobby = table
    with alice.client.websocket_connect(f"/ws/lobbies/{lobby['id']}") as ws:
        ws.receive_json()  # roster
        ws.send_json({"type": "chat", "text": "x" * (MAX_CHARS + 1), "id": 7})
        reply = ws.receive_json()
    assert reply["code"] == "chat/invalid" and reply["in_reply_to"] == 7
    assert _chat_count(online_app, lobby["id"]) == 0


def test_flooding_chat_is_rate_limited(online_app: Any, table: Any) -> None:
    alice, _, lobby = table
    replies = []
    with alice.client.websocket_connect(f"/ws/lobbies/{lobby['id']}") as ws:
        ws.receive_json()  # roster
        for n in range(BURST + 3):
            ws.send_json({"type": "chat", "text": f"spam {n}"})
            replies.append(ws.receive_json())
    codes = [r.get("code") or r["type"] for r in replies]
    assert codes[:BURST] == ["chat"] * BURST
    assert set(codes[BURST:]) == {"chat/rate-limited"}
    stored = online_app.state.online.online.chat(lobby["id"], None)
    assert [line.text for line in stored] == [f"spam {n}" for n in range(BURST)]


def test_a_raven_to_a_house_not_in_the_game_is_refused(table: Any) -> None:
    alice, _, lobby = table
    with alice.client.websocket_connect(f"/ws/lobbies/{lobby['id']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", "text": "hello", "to": "tyrell"})
        assert ws.receive_json()["code"] == "chat/invalid"


def test_a_socket_from_another_origin_is_refused(online_app: Any, table: Any) -> None:
    alice, _, lobby = table
    with (
        pytest.raises(WebSocketDisconnect),
        alice.client.websocket_connect(
            f"/ws/games/{lobby['game_id']}/seats/stark",
            headers={"origin": "http://evil.example"},
        ) as ws,
    ):
        ws.receive_json()
    posted = alice.client.post(
        f"/api/lobbies/{lobby['id']}/kick",
        json={"house": "lannister"},
        headers={"origin": "http://evil.example"},
    )
    assert posted.status_code == 403 and posted.json()["code"] == "online/cross-origin"


def test_no_page_leaks_a_credential_in_a_referer(online_app: Any, player: Any) -> None:
    alice = player("Alice")
    for path in ("/", "/join", "/api/lobbies"):
        assert alice.client.get(path).headers["referrer-policy"] == "no-referrer"
    created = alice.post("/api/lobbies", {"players": 3}).json()
    assert all(link.startswith("/join#invite=") for link in created["invites"].values())


def test_html_in_names_and_chat_is_kept_as_plain_text(online_app: Any, player: Any) -> None:
    mallory = player("<img src=x onerror=alert(1)>")
    lobby = start_game(mallory, [])
    with mallory.client.websocket_connect(f"/ws/lobbies/{lobby['id']}") as ws:
        roster = ws.receive_json()
        ws.send_json({"type": "chat", "text": "<script>alert(2)</script>"})
        line = ws.receive_json()
    assert roster["seats"][2]["player"] == "<img src=x onerror=alert(1)>"
    assert line["text"] == "<script>alert(2)</script>"
