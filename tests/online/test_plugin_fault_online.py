"""Issue 35 finding 3 online: a plugin's rule that raises mid-game pauses the online game with
the plugin named, on every seat's and spectator's socket, instead of a seat thread that asks
the AI again and again (docs/protocol.md, ``paused``). The plugin is a real single-file
plugin in the user plugin folder; the online server (one worker, SQLite) runs under uvicorn
in this process, with its real AI pool; people and spectators use real WebSockets. Across
workers: two hubs share one SQLite file and one Redis database, as two ``westeros server``
workers would (skipped without Redis)."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from westeros.online.hub import OnlineHub
from westeros.online.session import OnlineSession
from westeros.plugins import ENV_NO_AUTOLOAD, ENV_PLUGIN_DIR
from westeros.saves import open_store
from westeros.session import Accepted

from .helpers import decide, wait_for
from .seat_helpers import (
    LiveOnline,
    Person,
    anonymous_socket,
    live_online,
    receive,
    receive_until,
    redis_or_skip,
    register,
    two_hubs,
)

PLUGIN = "cursed_ravens_online"
HOOK = "rule_order_loop_start"
SECRET = "SECRET-IN-THE-TRACEBACK"
CURSED = f"""
from westeros import hookimpl

__version__ = "1.0"


@hookimpl
def rule_order_loop_start(options):
    def loop_start(state, order_type):
        if order_type == "raid":
            raise RuntimeError("the ravens are cursed ({SECRET})")

    return loop_start
"""
# In a 3-player game Lannister holds the Messenger Raven (King's Court): its raven decision
# ends the Planning phase, and the raid loop's start, where the plugin fails, follows (4.4, 5.1).
SCANS_S = 3.5
"""How long the tests watch a paused game: over three of the seat thread's scans (1 s)."""
PAUSE_WAIT_S = 60.0


class AiCalls:
    """Counts the seat thread's AI decisions (``OnlineSession.play_ai``, which still runs)."""

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def wrap(self, real: Any) -> Any:
        def play_ai(session: OnlineSession, house: str) -> Accepted | None:
            with self._lock:
                self.count += 1
            result: Accepted | None = real(session, house)
            return result

        return play_ai


@pytest.fixture
def ai_calls(monkeypatch: pytest.MonkeyPatch) -> AiCalls:
    calls = AiCalls()
    monkeypatch.setattr(OnlineSession, "play_ai", calls.wrap(OnlineSession.play_ai))
    return calls


def install_cursed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Put the cursed plugin in a user plugin folder under ``tmp_path``, loaded as ``westeros
    server`` loads it (and as the AI pool's processes do)."""
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / f"{PLUGIN}.py").write_text(CURSED)
    monkeypatch.setenv(ENV_NO_AUTOLOAD, "0")
    monkeypatch.setenv(ENV_PLUGIN_DIR, str(folder))
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)


@pytest.fixture
def cursed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cursed plugin installed (``install_cursed``)."""
    install_cursed(tmp_path, monkeypatch)


@pytest.fixture
def server(tmp_path: Path, cursed: None) -> Iterator[LiveOnline]:
    """An online server whose plugins include the cursed one."""
    with live_online(tmp_path) as live:
        yield live


@pytest.fixture
def two_workers(tmp_path: Path, cursed: None) -> Iterator[tuple[OnlineHub, OnlineHub]]:
    """Worker A, whose seat thread runs (it holds every game's lease), and worker B, which
    only follows: two hubs on one SQLite file and one Redis database."""
    url = redis_or_skip()
    store = open_store(f"sqlite:///{tmp_path / 'workers.db'}")
    with two_hubs(store, url, "paused", ai_budget=0.05) as (a, b):
        a.start()
        yield a, b
    store.close()


@pytest.fixture
def sockets() -> Iterator[ExitStack]:
    """Every socket a test opens, closed at its end."""
    with ExitStack() as stack:
        yield stack


def _start(host: Person, house: str, **extra: Any) -> tuple[str, str]:
    """A started 3-player game: ``host`` alone in ``house``, the AI in the other seats."""
    body = {"players": 3, "house": house, "open_houses": [house], "ai_level": "baseline"}
    lobby_id = host.post("/api/lobbies", {**body, "grace_seconds": 600, **extra})["lobby"]["id"]
    return lobby_id, host.post(f"/api/lobbies/{lobby_id}/start")["lobby"]["game_id"]


def _send(ws: Any, message_id: str, view_message: dict[str, Any]) -> None:
    """Send the seat's answer to the prompt of ``view_message``."""
    action = {
        "type": "action",
        "id": message_id,
        "action": decide(view_message["view"]),
        "state_id": view_message["state_id"],
    }
    ws.send(json.dumps(action))


def _paused(message: dict[str, Any]) -> bool:
    return message.get("type") == "paused"


def _stored_actions(server: LiveOnline, game_id: str) -> int:
    return len(server.hub.store.game_log(game_id)[1])


def test_an_ai_move_that_trips_a_plugin_fault_pauses_the_online_game_for_seats_and_spectators(
    server: LiveOnline,
    sockets: ExitStack,
    ai_calls: AiCalls,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 35 finding 3: the host plays Stark; Lannister's AI makes the raven decision that
    runs the failing rule. Stark's board socket and a spectator's socket are told the game is
    paused, naming the plugin, its hook and the exception's class (never its text); the seat
    thread does not ask the AI again over several scans and logs the fault once; Stark's
    next action is refused with ``plugin-fault`` and nothing more is stored; a spectator and
    a seat that connect later are told too."""
    host = register(server, "Hal")
    _, game_id = _start(host, "stark")
    board = sockets.enter_context(host.socket(f"/ws/games/{game_id}/seats/stark"))
    watcher = sockets.enter_context(anonymous_socket(server, f"/ws/games/{game_id}/watch"))
    first = receive(board)
    assert first["type"] == "view" and first["view"]["prompt"]["kind"] == "place_orders"
    with caplog.at_level(logging.ERROR, logger="westeros"):
        _send(board, "orders", first)
        paused, seen = receive_until(board, _paused, PAUSE_WAIT_S)
        print("Stark's board got:", [m["type"] for m in seen], paused)
        watched, _ = receive_until(watcher, _paused, PAUSE_WAIT_S)
        print("the spectator got:", watched)
        calls_at_pause = ai_calls.count
        stored = _stored_actions(server, game_id)
        time.sleep(SCANS_S)
        calls_after = ai_calls.count
    print(f"AI decisions asked: {calls_at_pause} until the pause, {calls_after} after scans")
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    print("error lines:", errors)

    expected = {"type": "paused", "cause": "plugin-fault", "plugin": PLUGIN, "hook": HOOK}
    assert {k: paused[k] for k in expected} == expected and paused["error"] == "RuntimeError"
    assert watched == paused
    assert paused["state_id"] == stored
    assert calls_after == calls_at_pause, "the seat thread asked the AI of a paused game"
    assert len(errors) == 1 and PLUGIN in errors[0]
    assert [m for m in seen if m.get("type") == "accepted"] == [
        {"type": "accepted", "state_id": first["state_id"] + 1, "in_reply_to": "orders"}
    ]

    _send(board, "again", {**first, "state_id": stored})
    refusal, _ = receive_until(board, lambda m: m.get("in_reply_to") == "again")
    print("Stark's action on the paused game:", refusal)
    assert refusal["type"] == "error" and refusal["code"] == "plugin-fault"
    assert PLUGIN in refusal["message"]
    assert _stored_actions(server, game_id) == stored

    late_watcher = sockets.enter_context(anonymous_socket(server, f"/ws/games/{game_id}/watch"))
    assert receive_until(late_watcher, _paused)[0] == paused
    late_board = sockets.enter_context(host.socket(f"/ws/games/{game_id}/seats/stark"))
    assert receive_until(late_board, _paused)[0] == paused
    assert SECRET not in json.dumps([*seen, paused, watched, refusal])


def test_a_pause_on_one_worker_reaches_the_seats_and_spectators_another_worker_holds(
    two_workers: tuple[OnlineHub, OnlineHub],
) -> None:
    """Issue 35 finding 3: Stark's board and a spectator are held by worker B; the game's AI
    runs on worker A, where Lannister's raven decision meets the plugin fault. B's replica
    pauses too (the bus's ``paused`` message): its Stark seat and spectator are told, naming
    the plugin, and Stark's next action through B is refused with ``plugin-fault``."""
    a, b = two_workers
    host = a.online.register("Hal")[0]
    lobby, _ = a.create_lobby(
        host, name="Two workers", players=3, host_house="stark", ai_level="baseline"
    )
    game_id = a.start_game(lobby.id, host).game_id
    assert game_id is not None
    on_b, _ = b.open_seat(game_id, "stark", host)
    seat: list[dict[str, Any]] = []
    watching: list[dict[str, Any]] = []
    on_b.attach("stark", seat.append)
    on_b.watch(watching.append)
    orders = {"type": "action", "id": "orders", "action": decide(seat[0]["view"])}
    reply = on_b.handle("stark", {**orders, "state_id": seat[0]["state_id"]}, host.id)
    assert reply["type"] == "accepted", reply

    paused = wait_for(lambda: [m for m in seat if m["type"] == "paused"], timeout=PAUSE_WAIT_S)
    watched = wait_for(lambda: [m for m in watching if m["type"] == "paused"], timeout=10)
    print("worker B's Stark seat was told:", paused, "its spectator:", watched)
    on_a, _ = a.session(game_id)
    assert on_a.paused is not None and on_b.paused is not None
    assert [(m["plugin"], m["hook"], m["error"]) for m in paused] == [
        (PLUGIN, HOOK, "RuntimeError")
    ]
    assert watched == paused
    again = on_b.handle("stark", {**orders, "id": "again", "state_id": on_b.serial}, host.id)
    assert again["code"] == "plugin-fault"
