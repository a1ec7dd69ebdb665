"""Turn notices by webhook (issue 40 acceptance 3; docs/online-notices.md): a player's own
webhook and the one the host sets for the whole game receive Discord-shaped JSON (``content``,
``username``, an embed) at a local receiver; only the host sets the game's; a URL that is not
https:// (or leads to this server's own network) is refused unless the operator allows it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from westeros.online.notices.targets import check_host, clean_url

from .helpers import wait_for
from .notices_helpers import Receiver, notice_server, people, receiver


@pytest.fixture
def hooks() -> Iterator[Receiver]:
    with receiver(status=204) as found:
        yield found


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    with notice_server(tmp_path, monkeypatch, {"WESTEROS_NOTICE_TIMEOUT": "5"}) as found:
        yield found


def discord(body: bytes) -> dict[str, Any]:
    """A Discord-shaped message, checked for its shape."""
    data: dict[str, Any] = json.loads(body)
    assert data["username"] == "Westeros"
    assert isinstance(data["content"], str) and 0 < len(data["content"]) <= 2000
    assert data["allowed_mentions"] == {"parse": []}
    for embed in data["embeds"]:
        assert embed["title"] and embed["url"].startswith("http")
        assert all({"name", "value"} <= set(f) for f in embed["fields"])
    return data


def test_the_players_and_the_games_webhooks_read_discord_json(app: Any, hooks: Receiver) -> None:
    make = people(app)
    alice, bob = make("Alice"), make("Bob")
    reply = alice.post("/api/notices", {"webhook_url": hooks.url("/alice")})
    assert reply.status_code == 200, reply.text
    assert reply.json()["webhook"] == {"url": hooks.url("/alice"), "on": True}
    lobby = alice.post("/api/lobbies", {"players": 3, "name": "Kings <@everyone>"}).json()
    lobby_id = lobby["lobby"]["id"]
    path = f"/api/notices/games/{lobby_id}/webhook"
    refused = bob.post(path, {"url": hooks.url("/game")})
    assert refused.status_code == 403 and refused.json()["code"] == "online/not-host"
    assert alice.post(path, {"url": hooks.url("/game")}).json() == {"url": hooks.url("/game")}
    assert alice.client.get(path).json() == {"url": hooks.url("/game")}
    assert bob.client.get(path).status_code == 403

    house = lobby["you"]["house"]
    started = alice.post(f"/api/lobbies/{lobby_id}/start")
    assert started.status_code == 200, started.text
    game_id = started.json()["lobby"]["game_id"]
    wait_for(lambda: hooks.at("/alice") and hooks.at("/game"))

    own = discord(hooks.at("/alice")[0][1])
    print("the player's webhook got:", own)
    assert "Kings <@everyone>" in own["content"]  # shown, never a mention
    assert own["embeds"][0]["url"].endswith(f"/games/{game_id}/play/{house}")
    values = [f["value"] for f in own["embeds"][0]["fields"]]
    assert "Place your orders" in values
    game = discord(hooks.at("/game")[0][1])
    assert "Alice" in game["content"]
    assert game["embeds"][0]["url"].endswith(f"/lobbies/{lobby_id}")

    assert alice.post(path, {"url": ""}).json() == {"url": None}  # removed
    off = alice.post("/api/notices", {"webhook_on": False}).json()["webhook"]
    assert off == {"url": hooks.url("/alice"), "on": False}


def test_a_second_game_with_the_webhook_switched_off_sends_nothing_there(
    app: Any, hooks: Receiver
) -> None:
    cara = people(app)("Cara")
    cara.post("/api/notices", {"webhook_url": hooks.url("/cara"), "webhook_on": False})
    with receiver() as witness:  # the game's webhook shows the decision was announced
        lobby = cara.post("/api/lobbies", {"players": 3, "name": "Quiet"}).json()["lobby"]
        cara.post(f"/api/notices/games/{lobby['id']}/webhook", {"url": witness.url("/g")})
        cara.post(f"/api/lobbies/{lobby['id']}/start")
        wait_for(lambda: witness.at("/g"))
        assert app.state.notices.wait_idle(30)
    assert hooks.at("/cara") == []


def test_urls_must_be_public_https_unless_the_operator_allows_private_ones() -> None:
    assert clean_url("https://discord.com/api/webhooks/1/x", private=False)
    for wrong in (
        "http://discord.com/api/webhooks/1/x",
        "https://user:pw@discord.com/x",
        "javascript:alert(1)",
        "https://",
        "",
        "https://a b.example.org/",
        "https://" + "a" * 600 + ".org/",
    ):
        with pytest.raises(ValueError):
            clean_url(wrong, private=False)
    assert clean_url("http://127.0.0.1:8080/hook", private=True)
    for private in ("http://127.0.0.1:9/x", "http://localhost/x", "https://[::1]/x"):
        with pytest.raises(ValueError, match=r"private|resolved"):
            check_host(private, private=False)
    check_host("http://127.0.0.1:9/x", private=True)
