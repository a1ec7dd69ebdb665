"""A game hosted from the local core (``online.hosting``), as the hosting tests set it up:
the local core behind its launch token, the host's form posted, a guest joined through their
invite link over the real listener, the game started by the host's key."""

from __future__ import annotations

import dataclasses
import html
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from .live import post_json

TOKEN = "hosting-authority-test-launch-token-0123456789"


def local_core(database: Path) -> TestClient:
    """A TestClient of a local core on ``database`` (enter it to start the app)."""
    from westeros.server import create_app

    app = create_app(token=TOKEN, store_url=f"sqlite:///{database}")
    client = TestClient(app, base_url="http://127.0.0.1")
    client.cookies.set("westeros_token", TOKEN)
    return client


@dataclasses.dataclass
class HostedGame:
    """A hosted game: the listener's address, the lobby, both people's keys and houses."""

    base: str
    lobby_id: str
    host_key: str
    host_house: str
    guest_key: str
    guest_house: str
    invites: list[str]
    game_id: str = ""


def host(core: TestClient, port: int, *, players: int = 3, people: int = 2) -> HostedGame:
    """Post the host form (baseline AI, ``people`` seats for people) and join the first
    invite as a guest; the game is not started."""
    reply = core.post(
        "/online/host",
        data={
            "name": "Hostess",
            "players": str(players),
            "open": str(people),
            "interface": "127.0.0.1",
            "listen_port": str(port),
            "ai_level": "baseline",
        },
    )
    assert reply.status_code == 200, reply.text
    page = html.unescape(reply.text)
    link = re.search(
        r'(?:href|value)="http://127\.0\.0\.1:\d+/join#key=([^"&]+)&lobby=([^"]+)"', page
    )
    assert link is not None, page
    host_key, lobby_id = link.groups()
    invites = re.findall(r'value="http://127\.0\.0\.1:\d+/join#invite=([^"]+)"', page)
    base = f"http://127.0.0.1:{port}"
    status, guest = post_json(f"{base}/api/players", {"name": "Guest"})
    assert status == 200, guest
    status, joined = post_json(f"{base}/api/join", {"invite": invites[0]}, guest["key"])
    assert status == 200, joined
    seats = {s["player"]: s["house"] for s in joined["lobby"]["seats"] if s["player"]}
    return HostedGame(
        base, lobby_id, host_key, seats["Hostess"], guest["key"], joined["house"], invites
    )


def start(game: HostedGame) -> HostedGame:
    """The guest is ready and the host starts the game (``game.game_id`` is set)."""
    lobby = f"{game.base}/api/lobbies/{game.lobby_id}"
    status, ready = post_json(f"{lobby}/ready", {"ready": True}, game.guest_key)
    assert status == 200, ready
    status, started = post_json(f"{lobby}/start", {}, game.host_key)
    assert status == 200, started
    game.game_id = started["lobby"]["game_id"]
    return game


def lobby_seats(game: HostedGame) -> dict[str, Any]:
    """The lobby's seats as the online server lists them, by house."""
    import json
    import urllib.request

    with urllib.request.urlopen(f"{game.base}/api/lobbies/{game.lobby_id}", timeout=30) as r:
        data = json.loads(r.read())
    return {s["house"]: s for s in data["lobby"]["seats"]}
