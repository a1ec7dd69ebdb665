"""Scale-out (docs/online.md): two ``westeros server`` processes sharing PostgreSQL and Redis.
Two people of one game are connected to different processes; every accepted action and chat
message reaches both; killing one process mid-game loses nothing — its player reconnects to
the other process and goes on from the last accepted action."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import sqlalchemy as sa

from .helpers import decide
from .live import Remote, fresh_schema, receive, register, shared_services, start_server


def _stored_actions(database: str, game_id: str) -> int:
    from westeros.store.db import create_db_engine

    engine = create_db_engine(database)
    try:
        with engine.connect() as db:
            return int(
                db.execute(
                    sa.text("SELECT action_count FROM games WHERE id = :id"), {"id": game_id}
                ).scalar_one()
            )
    finally:
        engine.dispose()


# an answer sent twice while the first was in flight, or to a question another house's action
# replaced meanwhile (legality is checked before staleness, DESIGN §4), by its wire code
RACES = (
    "stale-state",
    "illegal/not-pending",
    "illegal/already-revealed",
    "illegal/wrong-action-kind",
)


class Seat:
    """A person's seat socket: records every state it is shown and answers its prompts."""

    def __init__(self, person: Remote, game_id: str, house: str) -> None:
        self.house = house
        self.ws = person.socket(f"/ws/games/{game_id}/seats/{house}")
        first = receive(self.ws)
        assert first["type"] == "view" and first["history"] is True
        self.first = first
        self.seen: list[int] = []
        self.last = first
        self.answered: set[int] = set()
        self.refused: list[dict[str, Any]] = []

    def pump(self, seconds: float) -> None:
        """Read for up to ``seconds``, answering prompts for this house on the latest view once
        no more messages are waiting (a person answers what the board shows now)."""
        deadline = time.monotonic() + seconds
        self._answer()
        while time.monotonic() < deadline:
            try:
                message = receive(self.ws, timeout=0.1)
            except TimeoutError:
                self._answer()
                continue
            if message["type"] == "view":
                self.seen.append(message["state_id"])
                self.last = message
            elif message["type"] == "error" and message.get("code") not in RACES:
                self.refused.append(message)

    @property
    def state_id(self) -> int:
        return int(self.last["state_id"])

    def _answer(self) -> None:
        view = self.last["view"]
        if view["prompt"] is not None and self.state_id not in self.answered:
            self.answered.add(self.state_id)
            action = decide(view, seed=self.state_id)
            message = {"type": "action", "action": action, "state_id": self.state_id}
            self.ws.send(json.dumps(message))


def _play(seats: list[Seat], until: int, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while min(s.state_id for s in seats) < until:
        assert time.monotonic() < deadline, [s.state_id for s in seats]
        for seat in seats:
            seat.pump(0.3)


def _chat(ws: Any) -> dict[str, Any]:
    while True:
        message = receive(ws)
        if message["type"] == "chat":
            return message


def test_two_server_processes_share_a_game_and_survive_losing_one() -> None:
    pg, redis_url = shared_services()
    prefix = f"westeros-test-{uuid.uuid4().hex[:8]}"
    with fresh_schema(pg) as database:
        first, second = (start_server(database, redis_url, prefix) for _ in range(2))
        try:
            alice, bob = register(first, "Alice"), register(second, "Bob")
            created = alice.post(
                "/api/lobbies",
                {
                    "players": 3,
                    "house": "stark",
                    "open_houses": ["stark", "lannister"],
                    "ai_level": "baseline",
                },
            )
            lobby_id = created["lobby"]["id"]
            bob.post("/api/join", {"invite": created["invites"]["lannister"].split("=", 1)[1]})
            bob.post(f"/api/lobbies/{lobby_id}/ready", {"ready": True})
            game_id = alice.post(f"/api/lobbies/{lobby_id}/start")["lobby"]["game_id"]

            table_a = alice.socket(f"/ws/lobbies/{lobby_id}")
            table_b = bob.socket(f"/ws/lobbies/{lobby_id}")
            stark, lannister = Seat(alice, game_id, "stark"), Seat(bob, game_id, "lannister")

            table_a.send('{"type": "chat", "text": "Peace in the North?", "to": "lannister"}')
            table_a.send('{"type": "chat", "text": "Hello, table"}')
            assert _chat(table_b)["text"] == "Peace in the North?"
            assert _chat(table_b)["text"] == "Hello, table"
            table_b.send('{"type": "chat", "text": "Agreed", "to": "stark"}')
            got = [_chat(table_a)["text"] for _ in range(3)]
            assert got[-1] == "Agreed"

            _play([stark, lannister], until=stark.first["state_id"] + 4)
            for seat in (stark, lannister):  # every accepted action, in order, on both
                assert seat.seen == list(range(seat.first["state_id"] + 1, seat.state_id + 1))
            assert not stark.refused and not lannister.refused

            first.kill()  # Alice's server dies mid-game
            accepted = _stored_actions(database, game_id)
            moved = Remote(alice.name, alice.key, second)
            back = Seat(moved, game_id, "stark")
            assert back.first["state_id"] >= accepted
            _play([back, lannister], until=back.first["state_id"] + 3)
            assert back.seen == list(range(back.first["state_id"] + 1, back.state_id + 1))
            assert _stored_actions(database, game_id) >= back.state_id
            assert not back.refused and not lannister.refused
        finally:
            for server in (first, second):
                if server.process.poll() is None:
                    server.process.terminate()
                    server.process.wait(20)
