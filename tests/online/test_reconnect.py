"""Abandoned seats (docs/online.md): a person whose socket drops mid-decision is shown as
disconnected to everyone; after the host's grace period the AI decides for that seat; when
the person comes back (with their key, on any client) they take the seat over at once and
get exactly the view their house may see of the game as stored."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from westeros.engine import pending, player_view

from .helpers import receive_until, start_game, wait_for


def _roster(ws: Any, house: str, **wanted: Any) -> dict[str, Any]:
    def matches(message: dict[str, Any]) -> bool:
        if message["type"] != "roster":
            return False
        seat = next(s for s in message["seats"] if s["house"] == house)
        return all(seat[k] == v for k, v in wanted.items())

    return receive_until(ws, matches, limit=1000)


def test_a_dropped_seat_goes_to_the_ai_after_the_grace_period_and_comes_back(
    online_app: Any, player: Any
) -> None:
    alice, bob = player("Alice"), player("Bob")
    lobby = start_game(alice, [(bob, "lannister")], grace_seconds=1)
    game_id = lobby["game_id"]
    store = online_app.state.online.store
    seat = f"/ws/games/{game_id}/seats"
    with (
        alice.client.websocket_connect(f"{seat}/stark") as alice_seat,
        alice.client.websocket_connect(f"/ws/lobbies/{lobby['id']}") as table,
    ):
        alice_seat.receive_json()
        with bob.client.websocket_connect(f"{seat}/lannister") as bob_seat:
            first = bob_seat.receive_json()
            assert first["view"]["prompt"]["kind"] == "place_orders"  # mid-decision
            _roster(table, "lannister", connected=True, ai=False)
        _roster(table, "lannister", connected=False)  # everyone sees the drop

        wait_for(lambda: "lannister" not in pending(store.load_game(game_id).state), timeout=90)
        _roster(table, "lannister", ai=True)
        assert store.game(game_id).action_count >= 1

        on_the_laptop = TestClient(online_app)
        on_the_laptop.post("/api/players", json={"name": "Bob", "key": bob.key})
        with on_the_laptop.websocket_connect(f"{seat}/lannister") as back:
            again = back.receive_json()
            stored = store.load_game(game_id).state
            assert again["state_id"] == stored.serial
            assert again["view"] == json.loads(json.dumps(player_view(stored, "lannister")))
            _roster(table, "lannister", connected=True, ai=False)
