"""Chat and negotiation (docs/online.md; RULES.md 0.4.4 for who may read what): public
table talk reaches everyone, a raven only its two houses; spectators read only the public
table and can write only there; every line keeps its round and phase; the chat a socket
gets on (re)connect is filtered the same way."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from westeros.online.sockets import AfterHistory

from .helpers import receive_until, start_game


def _is_chat(message: dict[str, Any]) -> bool:
    return message["type"] == "chat"


def test_a_raven_reaches_only_its_two_houses_and_public_talk_everyone(
    online_app: Any, player: Any
) -> None:
    alice, bob, cara = player("Alice"), player("Bob"), player("Cara")
    lobby = start_game(alice, [(bob, "lannister"), (cara, "baratheon")])
    path = f"/ws/lobbies/{lobby['id']}"
    spectator = TestClient(online_app)
    with (
        alice.client.websocket_connect(path) as a,
        bob.client.websocket_connect(path) as b,
        cara.client.websocket_connect(path) as c,
        spectator.websocket_connect(path) as s,
    ):
        for ws in (a, b, c, s):
            assert ws.receive_json()["type"] == "roster"
        a.send_json({"type": "chat", "text": "Lannister: ally with me", "to": "lannister"})
        a.send_json({"type": "chat", "text": "Good luck, all"})
        got = {
            name: [receive_until(ws, _is_chat)["text"] for _ in range(count)]
            for name, ws, count in (("alice", a, 2), ("bob", b, 2), ("cara", c, 1), ("spec", s, 1))
        }
    assert got["alice"] == ["Lannister: ally with me", "Good luck, all"]
    assert got["bob"] == ["Lannister: ally with me", "Good luck, all"]
    assert got["cara"] == ["Good luck, all"]
    assert got["spec"] == ["Good luck, all"]

    def history(client: TestClient) -> list[str]:
        with client.websocket_connect(path) as ws:
            ws.receive_json()  # roster
            reply = client.get(f"/api/lobbies/{lobby['id']}/chat").json()["chat"]
        return [line["text"] for line in reply]

    assert history(bob.client) == ["Lannister: ally with me", "Good luck, all"]
    assert history(cara.client) == ["Good luck, all"]
    assert history(spectator) == ["Good luck, all"]


def test_chat_lines_keep_the_round_and_phase_they_were_written_in(player: Any) -> None:
    alice = player("Alice")
    lobby = start_game(alice, [])
    with alice.client.websocket_connect(f"/ws/games/{lobby['game_id']}/seats/stark") as ws:
        view = ws.receive_json()
        ws.send_json({"type": "chat", "text": "Winter is coming"})
        line = receive_until(ws, _is_chat)
    assert (line["round"], line["phase"]) == (view["view"]["round"], view["view"]["prompt"]["kind"])
    assert (line["name"], line["house"], line["to"]) == ("Alice", "stark", None)
    assert line["at"].endswith("+00:00")


def test_spectators_may_not_send_ravens(online_app: Any, player: Any) -> None:
    alice = player("Alice")
    lobby = start_game(alice, [])
    with TestClient(online_app).websocket_connect(f"/ws/lobbies/{lobby['id']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", "text": "psst", "to": "stark"})
        assert ws.receive_json()["code"] == "chat/invalid"


def test_a_line_written_while_a_socket_reads_the_stored_chat_reaches_it_once(
    online_app: Any, player: Any, monkeypatch: Any
) -> None:
    """A lobby socket is told of new lines from the moment it opens, then reads the stored
    chat: a line written in between is in both, and must reach the socket once, in its
    place (seen in tests/online/test_scale_out.py: a line came twice)."""
    alice, bob = player("Alice"), player("Bob")
    lobby = start_game(alice, [(bob, "lannister")])
    path = f"/ws/lobbies/{lobby['id']}"
    moderation = online_app.state.online.hub.moderation
    readable = moderation.readable
    with alice.client.websocket_connect(path) as a:
        a.receive_json()  # roster
        a.send_json({"type": "chat", "text": "Before Bob came"})
        receive_until(a, _is_chat)

        def racing(*args: Any) -> Any:
            print("injected: Alice writes while Bob's socket reads the stored chat")
            a.send_json({"type": "chat", "text": "Just now"})
            receive_until(a, _is_chat)  # stored, and delivered to the lobby's sockets
            return readable(*args)

        monkeypatch.setattr(moderation, "readable", racing)
        with bob.client.websocket_connect(path) as b:
            assert b.receive_json()["type"] == "roster"
            seen = [receive_until(b, _is_chat)["text"] for _ in range(2)]
            monkeypatch.setattr(moderation, "readable", readable)
            a.send_json({"type": "chat", "text": "After"})
            seen.append(receive_until(b, _is_chat)["text"])
    print("Bob's socket got:", seen)
    assert seen == ["Before Bob came", "Just now", "After"]


def test_a_stored_line_whose_delivery_comes_after_the_stored_chat_is_not_sent_again() -> None:
    """The hub delivers a new line to a lobby's sockets one after another: a socket that read
    the stored chat (the line among it) may be handed the line afterwards too, and sends it
    once (the race behind a flaky run of the test above: 'Just now' came twice)."""
    sent: list[dict[str, Any]] = []
    live = AfterHistory(sent.append)
    live({"type": "chat", "id": 1, "text": "held while the store was read"})
    live({"type": "roster"})
    history = [
        {"type": "chat", "id": 1, "text": "held while the store was read"},
        {"type": "chat", "id": 2, "text": "delivered after the read"},
    ]
    live.release(history)
    live({"type": "chat", "id": 2, "text": "delivered after the read"})
    live({"type": "chat", "id": 3, "text": "new"})
    live({"type": "roster"})
    # Reseated (issue 35 finding 4): the new seat's chat comes whole, the old lines again.
    live({"type": "seat", "house": "stark"})
    live({"type": "chat", "id": 1, "text": "held while the store was read"})
    assert [(m["type"], m.get("id")) for m in sent] == [
        ("chat", 1),
        ("chat", 2),
        ("roster", None),
        ("chat", 3),
        ("roster", None),
        ("seat", None),
        ("chat", 1),
    ]
