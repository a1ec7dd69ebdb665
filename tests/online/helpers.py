"""Helpers for the online tests: a person (their own client and key) and a bot that decides
on the view it was sent (as a person would: the client never sees the true state)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from westeros.ai import BaselineBot
from westeros.engine import Ruleset
from westeros.plugins import build_ruleset


@dataclasses.dataclass
class Player:
    """A registered person: display name, secret key, id and their own HTTP client."""

    name: str
    key: str
    id: str
    client: TestClient

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        """POST JSON as this person; returns the response."""
        return self.client.post(path, json=body or {})


def rules() -> Ruleset:
    """The base game's Ruleset (what every client knows)."""
    return build_ruleset({})


def decide(view: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    """A legal answer to the prompt in ``view``, worked out from the view alone."""
    return BaselineBot(seed=seed).decide(view, rules(), 0.05).to_json()


def receive_until(
    ws: Any, wanted: Callable[[dict[str, Any]], bool], limit: int = 200
) -> dict[str, Any]:
    """The first message from ``ws`` for which ``wanted`` holds (reading at most ``limit``)."""
    for _ in range(limit):
        message = ws.receive_json()
        if wanted(message):
            return message
    raise AssertionError("the expected message never came")


def wait_for(check: Callable[[], Any], timeout: float = 30.0, step: float = 0.1) -> Any:
    """Poll ``check`` until it returns something truthy (AssertionError after ``timeout``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(step)
    raise AssertionError("the condition never held")


def start_game(
    host: Player,
    others: list[tuple[Player, str]],
    *,
    players: int = 3,
    host_house: str = "stark",
    grace_seconds: int = 60,
    clock_seconds: int = 0,
    ai_level: str = "baseline",
    ai_personality: str = "balanced",
) -> dict[str, Any]:
    """Create a lobby hosted by ``host`` (in ``host_house``), let each other person join the
    house given by its invite, all ready, and start. Returns the started lobby."""
    open_houses = [host_house, *(house for _, house in others)]
    reply = host.post(
        "/api/lobbies",
        {
            "players": players,
            "name": "Test table",
            "house": host_house,
            "open_houses": open_houses,
            "ai_level": ai_level,
            "ai_personality": ai_personality,
            "grace_seconds": grace_seconds,
            "clock_seconds": clock_seconds,
        },
    )
    assert reply.status_code == 200, reply.text
    invites = reply.json()["invites"]
    lobby_id = reply.json()["lobby"]["id"]
    for person, house in others:
        token = invites[house].split("#invite=", 1)[1]
        joined = person.post("/api/join", {"invite": token})
        assert joined.status_code == 200, joined.text
        assert person.post(f"/api/lobbies/{lobby_id}/ready", {"ready": True}).status_code == 200
    started = host.post(f"/api/lobbies/{lobby_id}/start")
    assert started.status_code == 200, started.text
    return started.json()["lobby"]
