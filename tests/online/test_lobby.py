"""The lobby flow (docs/online.md): create → take houses (or random) → ready check → the host
starts; seats nobody took are the AI's; the host kicks a player (the seat goes to the AI) and
hands a seat back through a fresh invite. Players are a name plus a key whose hash alone is
stored."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from .helpers import Player, start_game


def _lobby(person: Player, lobby_id: str) -> dict[str, Any]:
    return person.client.get(f"/api/lobbies/{lobby_id}").json()


def test_the_server_keeps_only_the_hash_of_a_player_key(online_app: Any, player: Any) -> None:
    alice = player("Alice")
    engine = online_app.state.online.store.engine
    with engine.connect() as db:
        dump = "\n".join(str(row) for row in db.execute(sa.text("SELECT * FROM online_players")))
    assert "Alice" in dump
    assert alice.key not in dump
    assert len(alice.key) >= 40  # 256 random bits


def test_the_same_key_on_another_device_is_the_same_player(online_app: Any, player: Any) -> None:
    from fastapi.testclient import TestClient

    alice = player("Alice")
    laptop = TestClient(online_app)
    reply = laptop.post("/api/players", json={"name": "Alice on the laptop", "key": alice.key})
    assert reply.json()["id"] == alice.id
    assert laptop.get("/api/me").json() == {"id": alice.id, "name": "Alice on the laptop"}


def test_people_take_houses_get_ready_and_the_host_starts(player: Any) -> None:
    alice, bob, cara = player("Alice"), player("Bob"), player("Cara")
    created = alice.post("/api/lobbies", {"players": 3, "house": "stark", "ai_level": "baseline"})
    lobby_id = created.json()["lobby"]["id"]
    assert bob.post(f"/api/lobbies/{lobby_id}/take", {"house": "lannister"}).status_code == 200
    taken = cara.post(f"/api/lobbies/{lobby_id}/take", {"house": "random"})
    assert taken.json()["you"]["house"] == "baratheon"  # the only free seat left
    refused = alice.post(f"/api/lobbies/{lobby_id}/start")
    assert refused.status_code == 409
    assert refused.json()["code"] == "online/lobby-state"
    assert "not everyone is ready" in refused.json()["message"]
    for person in (bob, cara):
        person.post(f"/api/lobbies/{lobby_id}/ready", {"ready": True})
    assert bob.post(f"/api/lobbies/{lobby_id}/start").json()["code"] == "online/not-host"
    started = alice.post(f"/api/lobbies/{lobby_id}/start").json()["lobby"]
    assert started["status"] == "running" and started["game_id"]
    listed = alice.client.get("/api/lobbies").json()["lobbies"]
    assert [g["status"] for g in listed if g["id"] == lobby_id] == ["running"]


def test_a_taken_seat_cannot_be_taken_again(player: Any) -> None:
    alice, bob = player("Alice"), player("Bob")
    lobby_id = alice.post("/api/lobbies", {"players": 3, "house": "stark"}).json()["lobby"]["id"]
    reply = bob.post(f"/api/lobbies/{lobby_id}/take", {"house": "stark"})
    assert reply.status_code == 409
    assert _lobby(bob, lobby_id)["lobby"]["seats"][2]["player"] == "Alice"


def test_seats_nobody_took_are_played_by_the_ai(player: Any) -> None:
    alice = player("Alice")
    lobby = start_game(alice, [])
    seats = {s["house"]: s["player"] for s in lobby["seats"]}
    assert seats == {"baratheon": None, "lannister": None, "stark": "Alice"}
    with alice.client.websocket_connect(f"/ws/lobbies/{lobby['id']}") as ws:
        roster = ws.receive_json()
    assert {s["house"]: s["ai"] for s in roster["seats"]} == {
        "baratheon": True,
        "lannister": True,
        "stark": False,
    }


def test_the_host_kicks_a_player_to_the_ai_and_hands_the_seat_back(player: Any) -> None:
    alice, bob, cara = player("Alice"), player("Bob"), player("Cara")
    lobby = start_game(alice, [(bob, "lannister")])
    lobby_id, game_id = lobby["id"], lobby["game_id"]
    kicked = alice.post(f"/api/lobbies/{lobby_id}/kick", {"house": "lannister"})
    assert kicked.status_code == 200
    with bob.client.websocket_connect(f"/ws/games/{game_id}/seats/lannister") as ws:
        refused = ws.receive_json()
    assert refused["code"] == "online/not-your-seat"
    handed = alice.post(f"/api/lobbies/{lobby_id}/hand-back", {"house": "lannister"}).json()
    token = handed["invite"].split("#invite=", 1)[1]
    joined = cara.post("/api/join", {"invite": token})
    assert joined.json()["house"] == "lannister"
    with cara.client.websocket_connect(f"/ws/games/{game_id}/seats/lannister") as ws:
        assert ws.receive_json()["house"] == "lannister"
    assert cara.post("/api/join", {"invite": token}).json()["code"] == "online/bad-invite"
