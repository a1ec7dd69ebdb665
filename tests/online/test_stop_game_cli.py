"""Issue 35 finding 11 (M4): an operator stops a running all-AI online game from outside the
server with ``westeros server stop-game ID`` (docs/online.md). The online server (one
worker, SQLite) runs under uvicorn in this process with its real AI pool; the command runs
as its own process against the same database file, as an operator would run it."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import wait_for
from .seat_helpers import LiveOnline, Person, live_online, register

SCAN_S = 2.5
"""Long enough for the server's seat thread to scan (every second) and see the stop."""
WATCH_S = 3.0
"""How long the stopped game is watched for actions stored after the stop."""

ALL_AI: dict[str, Any] = {"players": 6, "house": None, "open_houses": [], "ai_level": "hard"}
"""An all-AI game slow enough (over ten seconds at Hard) not to end before it is stopped."""


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveOnline]:
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    with live_online(tmp_path) as live:
        yield live


def _database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'seats.db'}"  # live_online's file


def _all_ai_game(host: Person) -> tuple[str, str]:
    """A started game of the AI alone: (lobby id, game id)."""
    lobby_id = host.post("/api/lobbies", ALL_AI)["lobby"]["id"]
    return lobby_id, host.post(f"/api/lobbies/{lobby_id}/start")["lobby"]["game_id"]


def _stored(server: LiveOnline, game_id: str) -> int:
    return len(server.hub.store.game_log(game_id)[1])


def _stop_game(*arguments: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "westeros.cli", "server", "stop-game", *arguments]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    print("$", " ".join(command[3:]), f"-> {done.returncode}", done.stdout, done.stderr)
    return done


@pytest.mark.parametrize("by", ["game", "lobby"])
def test_the_operator_stops_a_running_all_ai_game_from_outside_the_server(
    server: LiveOnline, tmp_path: Path, by: str
) -> None:
    """Issue 35 finding 11 (M4): an all-AI game plays on by itself until the operator runs
    ``westeros server stop-game`` with its game id (or its lobby id) and the server's
    database; the command says which game it stopped, the lobby is finished, once the
    server's seat thread has scanned no more action is stored, and the key may start the
    all-AI game the stopped one held back (``online/too-many`` before)."""
    host = register(server, "Hal")
    lobby_id, game_id = _all_ai_game(host)
    wait_for(lambda: _stored(server, game_id) >= 3)
    second = host.post("/api/lobbies", {**ALL_AI, "name": "second"})["lobby"]["id"]
    status, refusal = host.try_post(f"/api/lobbies/{second}/start")
    assert (status, refusal["code"]) == (429, "online/too-many")  # one all-AI game per key

    done = _stop_game(game_id if by == "game" else lobby_id, "--database", _database(tmp_path))

    assert done.returncode == 0
    assert game_id in done.stdout and lobby_id in done.stdout
    assert server.hub.online.lobby(lobby_id).status == "finished"
    time.sleep(SCAN_S)
    after_scan = _stored(server, game_id)
    time.sleep(WATCH_S)
    print(f"actions stored: {after_scan} once the server scanned, then {_stored(server, game_id)}")
    assert _stored(server, game_id) == after_scan
    started = host.post(f"/api/lobbies/{second}/start")["lobby"]  # the stopped one counts no more
    assert started["status"] == "running"


def test_stop_game_refuses_an_unknown_id_and_a_game_that_is_not_running(
    server: LiveOnline, tmp_path: Path
) -> None:
    """Issue 35 finding 11 (M4): ``stop-game`` names what it cannot stop (an id that is no
    online game's, a game already stopped) with exit status 2, and changes nothing."""
    host = register(server, "Hal")
    lobby_id, game_id = _all_ai_game(host)
    database = _database(tmp_path)

    unknown = _stop_game("no-such-game", "--database", database)
    assert unknown.returncode == 2 and "no-such-game" in unknown.stderr
    assert server.hub.online.lobby(lobby_id).status == "running"

    assert _stop_game(game_id, "--database", database).returncode == 0
    again = _stop_game(game_id, "--database", database)
    assert again.returncode == 2 and "not running" in again.stderr

    missing = _stop_game(game_id, "--database", f"sqlite:///{tmp_path / 'elsewhere.db'}")
    assert missing.returncode == 2 and "elsewhere.db" in missing.stderr
    assert not (tmp_path / "elsewhere.db").exists()
