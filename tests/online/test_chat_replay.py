"""The chat in replays and game files of online games (docs/online.md "Replays and files";
RULES.md 0.4.4): public table talk for everyone who may see the replay or the file; a raven
only for its sender and the house it went to — never for another house or a spectator, on
every route (each step of a replay, the export), while the game runs and after it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from westeros.store import InvalidGameFile, archive

from .helpers import Player, receive_until, start_game, wait_for

PUBLIC = "Good luck, my lords"
RAVEN = "Lannister: the Trident is yours if you leave me Moat Cailin"
REPLY = "Agreed, Stark"
TOKEN = "chat-replay-test-launch-token-0123456789"


@pytest.fixture
def table(
    online_app: Any, player: Any, request: pytest.FixtureRequest
) -> Iterator[tuple[dict[str, Player], dict[str, Any]]]:
    """A 3-player game (Stark hosted by Alice, Lannister: Bob, Baratheon: Cara) in which
    Alice says something in public and sends Bob a raven, which Bob answers. Nobody opens a
    board: with a grace period of 0 s (the indirect parameter) the AI plays every seat on to
    the end, with the default hour the game stays where it is."""
    people = {"stark": player("Alice"), "lannister": player("Bob"), "baratheon": player("Cara")}
    lobby = start_game(
        people["stark"],
        [(people["lannister"], "lannister"), (people["baratheon"], "baratheon")],
        grace_seconds=getattr(request, "param", 3600),
    )
    path = f"/ws/lobbies/{lobby['id']}"
    with (
        people["stark"].client.websocket_connect(path) as alice,
        people["lannister"].client.websocket_connect(path) as bob,
    ):
        for ws in (alice, bob):
            receive_until(ws, lambda m: m["type"] == "roster")
        alice.send_json({"type": "chat", "text": PUBLIC})
        alice.send_json({"type": "chat", "text": RAVEN, "to": "lannister"})
        receive_until(bob, lambda m: m.get("text") == RAVEN)
        bob.send_json({"type": "chat", "text": REPLY, "to": "stark"})
        receive_until(alice, lambda m: m.get("text") == REPLY)
    yield people, lobby


def _step(client: TestClient, game_id: str, seq: int, house: str | None = None) -> Any:
    query = f"?house={house}" if house else ""
    return client.get(f"/games/{game_id}/replay/step/{seq}{query}")


def _texts(lines: list[dict[str, Any]]) -> list[str]:
    return [line["text"] for line in lines]


@contextmanager
def _host_app(tmp_path: Path) -> Iterator[TestClient]:
    """The local core of the app that hosted the game (same database; its own games' AI
    waits a minute between moves, so they stay still while read)."""
    from westeros.server import create_app

    url = f"sqlite:///{tmp_path / 'online.db'}"
    core = create_app(token=TOKEN, store_url=url, ai_delay=60)
    with TestClient(core, base_url="http://127.0.0.1") as local:
        local.cookies.set("westeros_token", TOKEN)
        yield local


def _finished(online_app: Any, game_id: str) -> None:
    store = online_app.state.online.store
    wait_for(lambda: store.game(game_id).winner is not None, timeout=240, step=0.5)


def test_a_running_game_s_replay_shows_each_seat_its_own_ravens_only(
    online_app: Any, table: tuple[dict[str, Player], dict[str, Any]]
) -> None:
    people, lobby = table
    game = lobby["game_id"]
    alice = _step(people["stark"].client, game, 0, "stark")
    bob = _step(people["lannister"].client, game, 0, "lannister")
    cara = _step(people["baratheon"].client, game, 0, "baratheon")
    assert _texts(alice.json()["chat"]) == [PUBLIC, RAVEN, REPLY]
    assert _texts(bob.json()["chat"]) == [PUBLIC, RAVEN, REPLY]
    assert _texts(cara.json()["chat"]) == [PUBLIC]
    raven = alice.json()["chat"][1]
    assert (raven["name"], raven["house"], raven["to"]) == ("Alice", "stark", "lannister")
    # Another person's seat, or a spectator's look at one, is refused while the game runs.
    assert _step(people["baratheon"].client, game, 0, "lannister").status_code == 403
    assert _step(TestClient(online_app), game, 0, "stark").status_code == 403
    assert people["baratheon"].client.get(f"/games/{game}/replay/stark").status_code == 403
    assert people["lannister"].client.get(f"/games/{game}/replay/lannister").status_code == 200
    assert people["stark"].client.get(f"/games/{game}/export").status_code == 403


@pytest.mark.parametrize("table", [0], indirect=True)
def test_after_the_game_ravens_stay_with_their_two_houses_in_replays_and_files(
    online_app: Any, table: tuple[dict[str, Player], dict[str, Any]], tmp_path: Path
) -> None:
    people, lobby = table
    game = lobby["game_id"]
    _finished(online_app, game)
    spectator = TestClient(online_app)
    for viewer in (None, "stark", "lannister", "baratheon"):  # every view opens now
        assert _texts(_step(spectator, game, 0, viewer).json()["chat"]) == [PUBLIC]
        assert _texts(_step(people["baratheon"].client, game, 0, viewer).json()["chat"]) == [PUBLIC]
    assert _texts(_step(people["stark"].client, game, 0).json()["chat"]) == [PUBLIC, RAVEN, REPLY]
    # Bob replaying Cara's seat sees what Cara read: not his own ravens.
    assert _texts(_step(people["lannister"].client, game, 0, "baratheon").json()["chat"]) == [
        PUBLIC
    ]

    def exported(client: TestClient) -> dict[str, Any]:
        reply = client.get(f"/games/{game}/export")
        assert reply.status_code == 200, reply.text
        document: dict[str, Any] = json.loads(reply.text)
        return document

    assert _texts(exported(people["stark"].client)["chat"]) == [PUBLIC, RAVEN, REPLY]
    assert _texts(exported(people["lannister"].client)["chat"]) == [PUBLIC, RAVEN, REPLY]
    assert _texts(exported(people["baratheon"].client)["chat"]) == [PUBLIC]
    spectators = exported(spectator)
    assert _texts(spectators["chat"]) == [PUBLIC]
    assert RAVEN not in json.dumps(spectators) and REPLY not in json.dumps(spectators)
    # The file with its chat is still a game file; a damaged chat line is named on import.
    assert archive.parse(json.dumps(spectators)).chat[0].text == PUBLIC
    spectators["chat"][0]["to"] = 7
    with pytest.raises(InvalidGameFile, match=r"chat\.0\.to"):
        archive.parse(json.dumps(spectators))
    # The host's own app (hosting.py, the same database) exports and replays it as Alice.
    with _host_app(tmp_path) as local:
        file = json.loads(local.get(f"/games/{game}/export").text)
        assert _texts(file["chat"]) == [PUBLIC, RAVEN, REPLY]
        assert _texts(_step(local, game, 0, "baratheon").json()["chat"]) == [PUBLIC]


def test_the_app_that_hosted_the_game_replays_it_as_its_host_and_keeps_local_games_home(
    online_app: Any,
    table: tuple[dict[str, Player], dict[str, Any]],
    tmp_path: Path,
) -> None:
    """The host's own app (its local core, on the same database: hosting.py) replays the
    online game as the host: their own seat while it runs, with their ravens; the online
    server does not serve the app's local games."""
    people, lobby = table
    game = lobby["game_id"]
    with _host_app(tmp_path) as local:
        assert _texts(_step(local, game, 0, "stark").json()["chat"]) == [PUBLIC, RAVEN, REPLY]
        assert _step(local, game, 0, "lannister").status_code == 403  # Bob's seat
        created = local.post(
            "/games",
            data={"players": "3", "house": "stark", "seed": "8"},
            follow_redirects=False,
        )
        assert created.status_code == 303
        own_game = created.headers["location"].split("/")[2]
        assert "chat" in _step(local, own_game, 0, "stark").json()
    for path in ("replay/stark", "replay/step/0?house=stark", "export"):
        assert people["stark"].client.get(f"/games/{own_game}/{path}").status_code == 404
