"""Limits per player key (issue 35 findings 11 and 15, docs/online.md "Limits"): the open
lobbies one key hosts, the games it runs and of those the games without a person are
bounded (defaults, or the ``WESTEROS_MAX_*_PER_KEY`` settings); a game without other people
can be stopped by its creator and any game by an operator, after which its AI plays no more;
a spectator's chat allowance is counted by their address, so reconnecting does not renew it."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from westeros.online.chat import BURST
from westeros.online.errors import LobbyState
from westeros.online.quotas import ENV_AI_GAMES, ENV_GAMES, ENV_LOBBIES, MAX_LOBBIES
from westeros.online.records import PlayerInfo
from westeros.online.store import OnlineStore

from .helpers import Player, receive_until, start_game, wait_for

SETTLE_S = 2.5  # over two scans of the seat thread (1 s each)


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The online server with the default limits, except one running game per key."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    monkeypatch.delenv(ENV_LOBBIES, raising=False)
    monkeypatch.delenv(ENV_AI_GAMES, raising=False)
    monkeypatch.setenv(ENV_GAMES, "1")
    from westeros.online.app import create_online_app

    made = create_online_app(store_url=f"sqlite:///{tmp_path / 'limits.db'}", ai_budget=0.05)
    with TestClient(made):
        yield made


@pytest.fixture
def person(app: Any) -> Callable[[str], Player]:
    def make(name: str) -> Player:
        client = TestClient(app)
        data = client.post("/api/players", json={"name": name}).json()
        return Player(name, data["key"], data["id"], client)

    return make


def _all_ai(host: Player) -> str:
    reply = host.post(
        "/api/lobbies", {"players": 3, "house": None, "open_houses": [], "ai_level": "baseline"}
    )
    assert reply.status_code == 200, reply.text
    return str(reply.json()["lobby"]["id"])


def _says(text: str, message: dict[str, Any]) -> bool:
    return message.get("text") == text


def _actions(app: Any, game_id: str) -> int:
    return int(app.state.online.store.game(game_id).action_count)


def _settled(app: Any, game_id: str) -> int:
    """The game's stored action count once it has stopped changing for SETTLE_S."""
    count = -1
    while (now := _actions(app, game_id)) != count:
        count = now
        time.sleep(SETTLE_S)
    return count


def test_one_key_hosts_at_most_its_limit_of_open_lobbies(person: Callable[[str], Player]) -> None:
    """Issue 35 finding 11 (M4): one key opens MAX_LOBBIES lobbies; the next is refused with
    a clear code and nothing is created; another key still opens one."""
    flooder, other = person("Flood"), person("Real table")
    for _ in range(MAX_LOBBIES):
        assert flooder.post("/api/lobbies", {"players": 3}).status_code == 200
    refused = flooder.post("/api/lobbies", {"players": 3})
    print(f"{MAX_LOBBIES + 1} lobbies asked by one key: refused the last with {refused.json()}")
    assert refused.status_code == 429 and refused.json()["code"] == "online/too-many"
    listed = flooder.client.get("/api/lobbies").json()["lobbies"]
    assert len(listed) == MAX_LOBBIES
    assert other.post("/api/lobbies", {"players": 3}).status_code == 200


def test_one_key_runs_at_most_its_limit_of_games(person: Callable[[str], Player]) -> None:
    """Issue 35 finding 11 (M4): with WESTEROS_MAX_GAMES_PER_KEY=1 a host's second start is
    refused while the first game runs, and that lobby stays open (nothing changed)."""
    host = person("Hal")
    start_game(host, [])
    second = host.post("/api/lobbies", {"players": 3, "house": "stark", "ai_level": "baseline"})
    lobby_id = second.json()["lobby"]["id"]
    refused = host.post(f"/api/lobbies/{lobby_id}/start")
    assert refused.status_code == 429 and refused.json()["code"] == "online/too-many"
    assert host.client.get(f"/api/lobbies/{lobby_id}").json()["lobby"]["status"] == "open"


def test_the_creator_stops_an_all_ai_game_and_its_ai_plays_no_more(
    app: Any, person: Callable[[str], Player]
) -> None:
    """Issue 35 finding 11 (M4): a game with no person in it is stopped by the key that
    created it; the lobby is finished and no AI action is stored after it has settled."""
    host = person("Hal")
    lobby_id = _all_ai(host)
    game_id = host.post(f"/api/lobbies/{lobby_id}/start").json()["lobby"]["game_id"]
    hub = app.state.online.hub
    wait_for(lambda: _actions(app, game_id) >= 2, timeout=60)
    stopped = hub.stop_game(lobby_id, PlayerInfo(host.id, host.name))
    assert stopped.status == "finished"
    count = _settled(app, game_id)
    time.sleep(SETTLE_S)
    print(f"stored actions once stopped: {count}; {SETTLE_S} s later: {_actions(app, game_id)}")
    assert _actions(app, game_id) == count
    assert host.client.get(f"/api/lobbies/{lobby_id}").json()["lobby"]["status"] == "finished"


def test_an_operator_stops_a_game_from_outside_the_server(
    app: Any, person: Callable[[str], Player]
) -> None:
    """Issue 35 finding 11 (M4): an operator's command (the store, from another process,
    no hub) stops a running all-AI game; the server's AI stops playing it within a scan."""
    host = person("Hal")
    lobby_id = _all_ai(host)
    game_id = host.post(f"/api/lobbies/{lobby_id}/start").json()["lobby"]["game_id"]
    wait_for(lambda: _actions(app, game_id) >= 2, timeout=60)
    OnlineStore(app.state.online.store.engine).stop(lobby_id)
    count = _settled(app, game_id)
    time.sleep(SETTLE_S)
    assert _actions(app, game_id) == count


def test_the_host_cannot_stop_a_game_that_other_people_play(
    app: Any, person: Callable[[str], Player]
) -> None:
    """Issue 35 finding 11 (M4): stopping is for games without other people: the host of a
    game Bob plays in is refused and the game goes on."""
    host, bob = person("Hal"), person("Bob")
    lobby = start_game(host, [(bob, "lannister")])
    with pytest.raises(LobbyState):
        app.state.online.hub.stop_game(lobby["id"], PlayerInfo(host.id, host.name))
    assert host.client.get(f"/api/lobbies/{lobby['id']}").json()["lobby"]["status"] == "running"


def test_a_spectator_reconnecting_gets_no_fresh_chat_allowance(
    app: Any, person: Callable[[str], Player]
) -> None:
    """Issue 35 finding 15 (M5): a spectator (no key) writes BURST lines, reconnects and
    writes again: refused (chat/rate-limited), as is a second spectator socket; a player at
    the table is not held back by the spectators' count."""
    host = person("Hal")
    lobby_id = host.post("/api/lobbies", {"players": 3, "house": "stark"}).json()["lobby"]["id"]
    watcher = TestClient(app)
    path = f"/ws/lobbies/{lobby_id}"
    with watcher.websocket_connect(path) as ws:
        for n in range(BURST):
            text = f"line {n}"
            ws.send_json({"type": "chat", "text": text})
            receive_until(ws, functools.partial(_says, text))
    refusals = []
    for attempt in range(2):  # reconnect, twice
        with watcher.websocket_connect(path) as ws:
            ws.send_json({"type": "chat", "text": f"again {attempt}"})
            answer = receive_until(
                ws, lambda m: m.get("type") == "error" or str(m.get("text", "")).startswith("again")
            )
            refusals.append(answer.get("code"))
    print(f"{BURST} lines, then one line on each of 2 new sockets: {refusals}")
    assert refusals == ["chat/rate-limited", "chat/rate-limited"]
    with host.client.websocket_connect(path) as ws:
        ws.send_json({"type": "chat", "text": "the host speaks"})
        receive_until(ws, lambda m: m.get("text") == "the host speaks")
    texts = [
        line["text"] for line in host.client.get(f"/api/lobbies/{lobby_id}/chat").json()["chat"]
    ]
    assert texts == [*(f"line {n}" for n in range(BURST)), "the host speaks"]
