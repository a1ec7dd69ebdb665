"""Anonymous tables (issue 40 acceptance 6; docs/online-moderation.md): a lobby created with
``anonymous`` shows no person's name to anyone — its own players included — on any route,
HTTP or socket, until its game ends: the lobby list, the lobby and its socket's roster, the
invite and join answers, the chat and ravens (live and as history), the board page, deals,
replays, the game file (refused until the end), spectators' sockets and the app that hosted
the game; each seat shows as "Player of House …". Once the game is over every route shows
the names again (the game's record kept them)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from .helpers import Player, receive_until, wait_for

NAMES = {"stark": "Alys Qarth", "lannister": "Bors Vinn", "baratheon": "Cerys Tul"}
LABELS = {
    "stark": "Player of House Stark",
    "lannister": "Player of House Lannister",
    "baratheon": "Player of House Baratheon",
}
TOKEN = "anonymous-test-launch-token-0123456789"


def _leaks(*texts: str) -> list[str]:
    """The real names (or surnames) found in ``texts``."""
    found = []
    for name in NAMES.values():
        for part in (name, name.split()[1]):
            if any(part in text for text in texts):
                found.append(part)
    return found


def _roster(ws: Any) -> dict[str, Any]:
    return receive_until(ws, lambda m: m["type"] == "roster")


@contextmanager
def _host_app(tmp_path: Path) -> Iterator[TestClient]:
    """The local core of the app that hosted the game (same database)."""
    from westeros.server import create_app

    core = create_app(token=TOKEN, store_url=f"sqlite:///{tmp_path / 'online.db'}", ai_delay=60)
    with TestClient(core, base_url="http://127.0.0.1") as local:
        local.cookies.set("westeros_token", TOKEN)
        yield local


def _table(player: Any) -> tuple[dict[str, Player], dict[str, Any], list[str]]:
    """An anonymous 3-player lobby Alys hosts (Stark), Bors and Cerys join by invite, the AI
    takes an absent person's seat at once; not started yet. Also every answer's text."""
    people = {house: player(name) for house, name in NAMES.items()}
    created = people["stark"].post(
        "/api/lobbies",
        {"players": 3, "house": "stark", "anonymous": True, "grace_seconds": 0},
    )
    assert created.status_code == 200, created.text
    answers = [created.text]
    lobby = created.json()["lobby"]
    for house in ("lannister", "baratheon"):
        token = created.json()["invites"][house].split("#invite=", 1)[1]
        joined = people[house].post("/api/join", {"invite": token})
        assert joined.status_code == 200, joined.text
        ready = people[house].post(f"/api/lobbies/{lobby['id']}/ready", {"ready": True})
        answers += [joined.text, ready.text]
    return people, lobby, answers


def test_an_anonymous_table_hides_every_name_on_every_route_until_the_game_ends(
    online_app: Any, player: Any, tmp_path: Path
) -> None:
    people, lobby, answers = _table(player)
    alys, bors, cerys = people["stark"], people["lannister"], people["baratheon"]
    lobby_id = lobby["id"]
    spectator = TestClient(online_app)
    assert lobby["settings"]["anonymous"] is True
    assert lobby["name"] == "Anonymous table"  # never "Alys Qarth's game"
    assert {s["house"]: s["player"] for s in lobby["seats"]}["stark"] == LABELS["stark"]
    seen: list[str] = list(answers)

    # Before the start: the lobby's socket, its chat and the lists.
    with bors.client.websocket_connect(f"/ws/lobbies/{lobby_id}") as ws:
        roster = _roster(ws)
        ws.send_json({"type": "chat", "text": "before the start"})
        line = receive_until(ws, lambda m: m["type"] == "chat")
        seen += [json.dumps(roster), json.dumps(line)]
    assert {s["house"]: s["player"] for s in roster["seats"]} == LABELS
    assert line["name"] == LABELS["lannister"]
    seen += [c.get("/api/lobbies").text for c in (alys.client, spectator)]
    started = alys.post(f"/api/lobbies/{lobby_id}/start")
    assert started.status_code == 200, started.text
    seen.append(started.text)
    game_id = started.json()["lobby"]["game_id"]

    with ExitStack() as stack:
        # Every person's board open (the game waits for them), a spectator watching.
        boards = {
            house: stack.enter_context(
                people[house].client.websocket_connect(f"/ws/games/{game_id}/seats/{house}")
            )
            for house in NAMES
        }
        for ws in boards.values():
            seen.append(json.dumps(receive_until(ws, lambda m: m["type"] == "view")))
        watch = stack.enter_context(spectator.websocket_connect(f"/ws/games/{game_id}/watch"))
        seen.append(json.dumps(receive_until(watch, lambda m: m["type"] == "view")))
        sockets = {
            who: stack.enter_context(client.websocket_connect(f"/ws/lobbies/{lobby_id}"))
            for who, client in (("bors", bors.client), ("spectator", spectator))
        }
        for ws in sockets.values():
            seen.append(json.dumps(_roster(ws)))
        boards["stark"].send_json({"type": "chat", "text": "Stark to all"})
        boards["stark"].send_json({"type": "chat", "text": "Stark to Lannister", "to": "lannister"})
        got = [receive_until(sockets["bors"], lambda m: m.get("text") == "Stark to Lannister")]
        got.append(receive_until(watch, lambda m: m.get("text") == "Stark to all"))
        seen += map(json.dumps, got)
        assert {m["name"] for m in got} == {LABELS["stark"]}

        for person, house in ((alys, "stark"), (bors, "lannister"), (cerys, "baratheon")):
            client = person.client
            for path in (
                "/api/lobbies",
                f"/api/lobbies/{lobby_id}",
                f"/api/lobbies/{lobby_id}/chat",
                f"/lobbies/{lobby_id}",
                "/join",
                f"/games/{game_id}/play/{house}",
                f"/games/{game_id}/deals/{house}",
                f"/games/{game_id}/replay/{house}",
                f"/games/{game_id}/replay/step/0?house={house}",
            ):
                reply = client.get(path)
                assert reply.status_code == 200, (path, reply.text)
                seen.append(reply.text)
            assert client.get(f"/games/{game_id}/export").status_code == 403
        history = bors.client.get(f"/api/lobbies/{lobby_id}/chat").json()["chat"]
        assert [(m["name"], m["text"]) for m in history] == [
            (LABELS["lannister"], "before the start"),
            (LABELS["stark"], "Stark to all"),
            (LABELS["stark"], "Stark to Lannister"),
        ]
        seen += [spectator.get(path).text for path in ("/api/lobbies", f"/api/lobbies/{lobby_id}")]
        with _host_app(tmp_path) as local:  # the app that hosted it, as its host
            refused = local.get(f"/games/{game_id}/play/lannister")
            step = local.get(f"/games/{game_id}/replay/step/0?house=stark")
            assert (refused.status_code, step.status_code) == (403, 200)
            seen += [refused.text, step.text]
        assert _leaks(*seen) == [], "a name reached a client while the game ran"

    # The boards close: the AI plays every seat to the end, and the names show again, on a
    # lobby socket open since before the end too.
    store = online_app.state.online.store
    with spectator.websocket_connect(f"/ws/lobbies/{lobby_id}") as ws:
        _roster(ws)
        wait_for(lambda: store.game(game_id).winner is not None, timeout=300, step=0.5)
        roster = receive_until(
            ws, lambda m: m["type"] == "roster" and m["lobby"]["status"] == "finished"
        )
    assert {s["house"]: s["player"] for s in roster["seats"]} == NAMES
    shown = alys.client.get(f"/api/lobbies/{lobby_id}").json()["lobby"]
    assert shown["status"] == "finished"
    assert {s["house"]: s["player"] for s in shown["seats"]} == NAMES
    history = spectator.get(f"/api/lobbies/{lobby_id}/chat").json()["chat"]
    assert {m["text"]: m["name"] for m in history} == {
        "before the start": NAMES["lannister"],
        "Stark to all": NAMES["stark"],
    }
    step = bors.client.get(f"/games/{game_id}/replay/step/0?house=lannister").json()
    assert {m["name"] for m in step["chat"]} == {NAMES["lannister"], NAMES["stark"]}
    exported = json.loads(bors.client.get(f"/games/{game_id}/export").text)
    assert {s["house"]: s["name"] for s in exported["game"]["seats"]} == NAMES
    assert {m["name"] for m in exported["chat"]} == {NAMES["lannister"], NAMES["stark"]}


def test_a_table_that_is_not_anonymous_shows_names_as_before(player: Any) -> None:
    host = player("Alys Qarth")
    created = host.post("/api/lobbies", {"players": 3, "house": "stark"}).json()["lobby"]
    assert created["settings"]["anonymous"] is False
    assert created["name"] == "Alys Qarth's game"
    assert {s["house"]: s["player"] for s in created["seats"]}["stark"] == "Alys Qarth"
