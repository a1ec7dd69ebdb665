"""One seat authority online (issue 35 findings 4 and 5, docs/online.md "Seats"): a socket
speaks for the seat its player holds *now*. A lobby socket whose player moves to another
seat (or is kicked) reads and writes for the new seat only (or none), and is told so; a board
socket whose player no longer holds its seat is closed (4403), its actions refused and no
view of that seat reaches it any more. A live server in this process, real WebSockets."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from .helpers import decide
from .seat_helpers import (
    LiveOnline,
    Person,
    chat,
    chat_texts,
    live_online,
    receive,
    receive_until,
    register,
    until_closed,
)


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveOnline]:
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    with live_online(tmp_path) as live:
        yield live


@pytest.fixture
def sockets() -> Iterator[ExitStack]:
    """Every socket a test opens, closed at its end."""
    with ExitStack() as stack:
        yield stack


def _lobby(host: Person, **extra: Any) -> dict[str, Any]:
    body = {"players": 3, "house": "stark", "ai_level": "baseline", "grace_seconds": 600}
    return host.post("/api/lobbies", {**body, **extra})


def _table(sockets: ExitStack, person: Person, lobby_id: str) -> Any:
    """``person``'s lobby socket, its opening roster read."""
    ws = sockets.enter_context(person.socket(f"/ws/lobbies/{lobby_id}"))
    assert receive(ws)["type"] == "roster"
    return ws


def _read_to(ws: Any, sentinel: str) -> list[dict[str, Any]]:
    """Every message up to and with the public line ``sentinel``."""
    last, before = receive_until(ws, lambda m: m.get("type") == "chat" and m["text"] == sentinel)
    return [*before, last]


def _running_game(host: Person, bob: Person) -> tuple[str, str]:
    """A started 3-player game: the host in Stark, Bob in Lannister, Baratheon the AI's."""
    created = _lobby(host, open_houses=["stark", "lannister"])
    lobby_id = created["lobby"]["id"]
    bob.post("/api/join", {"invite": created["invites"]["lannister"].split("=", 1)[1]})
    bob.post(f"/api/lobbies/{lobby_id}/ready", {"ready": True})
    game_id = host.post(f"/api/lobbies/{lobby_id}/start")["lobby"]["game_id"]
    return lobby_id, game_id


def test_a_lobby_socket_whose_player_moves_seat_reads_and_writes_only_for_the_new_seat(
    server: LiveOnline, sockets: ExitStack
) -> None:
    """Issue 35 finding 4 (C1): Alice takes Lannister, opens the lobby socket, moves to
    Baratheon; Lannister's next holder (Bob) gets a raven that Alice's socket never sees, and a
    raven Alice sends through that socket is stamped Baratheon, never Lannister."""
    host, alice, bob = (register(server, n) for n in ("Hal", "Alice", "Bob"))
    lobby_id = _lobby(host)["lobby"]["id"]
    alice.post(f"/api/lobbies/{lobby_id}/take", {"house": "lannister"})
    alice_table, host_table = _table(sockets, alice, lobby_id), _table(sockets, host, lobby_id)

    alice.post(f"/api/lobbies/{lobby_id}/take", {"house": "baratheon"})
    bob.post(f"/api/lobbies/{lobby_id}/take", {"house": "lannister"})
    bob_table = _table(sockets, bob, lobby_id)
    chat(host_table, "Lannister, for your eyes only", to="lannister")
    chat(host_table, "Baratheon, for your eyes only", to="baratheon")
    chat(host_table, "sentinel one")

    seen_by_alice = _read_to(alice_table, "sentinel one")
    assert "Lannister, for your eyes only" in chat_texts(_read_to(bob_table, "sentinel one"))
    print("Alice's lobby socket read:", chat_texts(seen_by_alice))
    assert "Lannister, for your eyes only" not in chat_texts(seen_by_alice)
    assert "Baratheon, for your eyes only" in chat_texts(seen_by_alice)
    told = [m for m in seen_by_alice if m.get("type") == "seat"]
    assert told and told[-1]["house"] == "baratheon"

    chat(alice_table, "From Storm's End", to="stark")
    line, _ = receive_until(host_table, lambda m: m.get("text") == "From Storm's End")
    assert (line["house"], line["name"], line["to"]) == ("baratheon", "Alice", "stark")
    stored = host.server.hub.online.chat(lobby_id, "stark")
    assert [(x.house, x.text) for x in stored if x.player_name == "Alice"] == [
        ("baratheon", "From Storm's End")
    ]


def test_a_kicked_player_s_lobby_socket_reads_none_of_the_seat_s_next_holder_s_ravens(
    server: LiveOnline, sockets: ExitStack
) -> None:
    """Issue 35 finding 4 (C1): the host gives Bob's Lannister to the AI, then opens it for
    Carol; Bob's still-open lobby socket is told it holds no seat, gets none of the ravens
    sent to Carol, and can no longer send a raven at all."""
    host, bob, carol = (register(server, n) for n in ("Hal", "Bob", "Carol"))
    lobby_id, _ = _running_game(host, bob)
    bob_table, host_table = _table(sockets, bob, lobby_id), _table(sockets, host, lobby_id)

    host.post(f"/api/lobbies/{lobby_id}/kick", {"house": "lannister"})
    invite = host.post(f"/api/lobbies/{lobby_id}/hand-back", {"house": "lannister"})["invite"]
    carol.post("/api/join", {"invite": invite.split("=", 1)[1]})
    chat(host_table, "Carol, a word about the Reach", to="lannister")
    chat(host_table, "sentinel two")

    seen_by_bob = _read_to(bob_table, "sentinel two")
    print("Bob's lobby socket read:", chat_texts(seen_by_bob))
    assert "Carol, a word about the Reach" not in chat_texts(seen_by_bob)
    told = [m for m in seen_by_bob if m.get("type") == "seat"]
    assert told and told[-1]["house"] is None

    chat(bob_table, "still Lannister?", to="stark")
    refused, _ = receive_until(bob_table, lambda m: m.get("type") == "error")
    assert refused["code"] == "chat/invalid"
    assert not [x for x in host.server.hub.online.chat(lobby_id, "stark") if x.player_name == "Bob"]


def test_a_board_socket_whose_player_joins_another_seat_is_closed_and_cannot_act(
    server: LiveOnline, sockets: ExitStack
) -> None:
    """Issue 35 finding 5 (M1): Bob plays Lannister with its board open, then follows an
    invite to Baratheon in the same running game. The Lannister board socket is closed (4403)
    with a clear error; the Lannister orders Bob sends through it are never accepted, and no
    Lannister view (with its take-back secrets) reaches it after the change."""
    host, bob = register(server, "Hal"), register(server, "Bob")
    lobby_id, game_id = _running_game(host, bob)
    board = sockets.enter_context(bob.socket(f"/ws/games/{game_id}/seats/lannister"))
    first = receive(board)
    assert first["type"] == "view" and first["view"]["prompt"] is not None

    invite = host.post(f"/api/lobbies/{lobby_id}/hand-back", {"house": "baratheon"})["invite"]
    bob.post("/api/join", {"invite": invite.split("=", 1)[1]})
    orders = {
        "type": "action",
        "id": "after-the-move",
        "action": decide(first["view"]),
        "state_id": first["state_id"],
    }
    with contextlib.suppress(Exception):  # the server may have closed it already
        board.send(json.dumps(orders))
    after, code = until_closed(board)
    print("the old Lannister board socket got:", [(m["type"], m.get("code")) for m in after])
    assert not [
        m for m in after if m.get("in_reply_to") == "after-the-move" and m["type"] == "accepted"
    ]
    errors = [i for i, m in enumerate(after) if m["type"] == "error"]
    assert errors and after[errors[0]]["code"] == "online/not-your-seat"
    assert not [m for m in after[errors[0] :] if m["type"] == "view"]
    assert code == 4403
    assert bob.try_post(f"/api/lobbies/{lobby_id}/take", {"house": "lannister"})[0] != 200
    baratheon = sockets.enter_context(bob.socket(f"/ws/games/{game_id}/seats/baratheon"))
    assert receive(baratheon)["house"] == "baratheon"
