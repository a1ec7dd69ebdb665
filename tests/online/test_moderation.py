"""Moderation, the minimum (issue 40; docs/online-moderation.md): a player blocks another's
chat for themselves (their sockets, the chat history, replays and files no longer show that
player's lines; everyone else still reads them), reports a line (stored with the line, the
reporter and the reason, listed by ``westeros server reports``); the operator mutes (no chat,
play goes on) or bans (no seat, chat, lobby or action, each refused with its own code) a
player by id or key with ``westeros server mute/ban``, run as its own process on the
server's database, and a ban counts at once on sockets already open."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from westeros.online import keys

from .helpers import Player, decide, receive_until, start_game, wait_for

PUBLIC = "Lannister speaks to all"
RAVEN_TO_CARA = "Lannister to Baratheon: a secret"
RAVEN_TO_ALICE = "Lannister to Stark: another secret"
MARKER = "Stark: the last word"


def _operator(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """``westeros server ARGUMENTS`` as its own process on the online app's database."""
    database = f"sqlite:///{tmp_path / 'online.db'}"  # the online_app fixture's file
    name, *rest = arguments  # the database before the rest, which may begin with "--"
    command = [sys.executable, "-m", "westeros.cli", "server", name, "--database", database, *rest]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    print("$ westeros server", *arguments, f"-> {done.returncode}", done.stdout, done.stderr)
    return done


def _chat(message: dict[str, Any]) -> bool:
    return message["type"] == "chat"


def _texts(lines: list[dict[str, Any]]) -> list[str]:
    return [line["text"] for line in lines]


def _until_marker(ws: Any) -> list[str]:
    """The chat texts ``ws`` receives up to and including MARKER."""
    texts: list[str] = []
    while MARKER not in texts:
        texts.append(receive_until(ws, _chat)["text"])
    return texts


def _history(person: Player, lobby_id: str) -> list[str]:
    reply = person.client.get(f"/api/lobbies/{lobby_id}/chat")
    assert reply.status_code == 200, reply.text
    return _texts(reply.json()["chat"])


def _table(player: Any) -> tuple[Player, Player, Player, dict[str, Any]]:
    """A running 3-player game: Alice (Stark, host), Bob (Lannister), Cara (Baratheon); the
    AI waits an hour for an absent person."""
    alice, bob, cara = player("Alice"), player("Bob"), player("Cara")
    lobby = start_game(alice, [(bob, "lannister"), (cara, "baratheon")], grace_seconds=3600)
    return alice, bob, cara, lobby


def test_a_block_hides_the_blocked_player_s_chat_and_ravens_for_the_blocker_only(
    online_app: Any, player: Any
) -> None:
    """Cara blocks Bob from one of his lines: the lines Bob wrote before leave her history
    (the block's answer names them), and of what he writes after — public and a raven to
    her — nothing reaches her socket, while Alice reads his public line and his raven to
    her. Cara's history (the chat API, a new socket, her seat's replay) lacks Bob's lines;
    Alice's has them. Unblocked, Cara reads them again."""
    alice, bob, cara, lobby = _table(player)
    lobby_id, game_id = lobby["id"], lobby["game_id"]
    path = f"/ws/lobbies/{lobby_id}"
    with (
        alice.client.websocket_connect(path) as a,
        bob.client.websocket_connect(path) as b,
        cara.client.websocket_connect(path) as c,
    ):
        for ws in (a, b, c):
            receive_until(ws, lambda m: m["type"] == "roster")
        b.send_json({"type": "chat", "text": "Bob's first word"})
        first = receive_until(c, _chat)
        assert (first["text"], first["name"]) == ("Bob's first word", "Bob")

        blocked = cara.post("/api/chat/blocks", {"lobby": lobby_id, "message": first["id"]})
        assert blocked.status_code == 200, blocked.text
        assert blocked.json()["hidden"] == [first["id"]]
        assert blocked.json()["block"]["name"] == "Bob"

        b.send_json({"type": "chat", "text": PUBLIC})
        b.send_json({"type": "chat", "text": RAVEN_TO_CARA, "to": "baratheon"})
        b.send_json({"type": "chat", "text": RAVEN_TO_ALICE, "to": "stark"})
        receive_until(b, lambda m: m.get("text") == RAVEN_TO_ALICE)
        a.send_json({"type": "chat", "text": MARKER})
        assert _until_marker(c) == [MARKER]
        assert _until_marker(a) == ["Bob's first word", PUBLIC, RAVEN_TO_ALICE, MARKER]

    assert _history(cara, lobby_id) == [MARKER]
    assert _history(alice, lobby_id) == ["Bob's first word", PUBLIC, RAVEN_TO_ALICE, MARKER]
    assert _history(bob, lobby_id) == [
        "Bob's first word",
        PUBLIC,
        RAVEN_TO_CARA,
        RAVEN_TO_ALICE,
        MARKER,
    ]
    with cara.client.websocket_connect(path) as c:
        receive_until(c, lambda m: m["type"] == "roster")
        assert _until_marker(c) == [MARKER]
    replay = cara.client.get(f"/games/{game_id}/replay/step/0?house=baratheon").json()
    assert _texts(replay["chat"]) == [MARKER]
    assert _texts(
        alice.client.get(f"/games/{game_id}/replay/step/0?house=stark").json()["chat"]
    ) == ["Bob's first word", PUBLIC, RAVEN_TO_ALICE, MARKER]

    blocks = cara.client.get("/api/chat/blocks").json()["blocks"]
    assert [b["name"] for b in blocks] == ["Bob"]
    assert cara.client.delete(f"/api/chat/blocks/{blocks[0]['id']}").status_code == 200
    assert _history(cara, lobby_id) == ["Bob's first word", PUBLIC, RAVEN_TO_CARA, MARKER]
    assert cara.client.get("/api/chat/blocks").json()["blocks"] == []


def test_blocks_and_reports_take_only_lines_the_player_reads_of_someone_else(
    online_app: Any, player: Any
) -> None:
    """One's own line cannot be blocked or reported; a raven one does not read is not
    there to block; a spectator without a key blocks nothing."""
    _alice, bob, cara, lobby = _table(player)
    lobby_id = lobby["id"]
    with bob.client.websocket_connect(f"/ws/lobbies/{lobby_id}") as b:
        receive_until(b, lambda m: m["type"] == "roster")
        b.send_json({"type": "chat", "text": "mine"})
        b.send_json({"type": "chat", "text": "for Alice only", "to": "stark"})
        own = receive_until(b, lambda m: m.get("text") == "mine")
        raven = receive_until(b, lambda m: m.get("text") == "for Alice only")
    for route, body in (("blocks", {}), ("reports", {"reason": "spam"})):
        refused = bob.post(f"/api/chat/{route}", {"lobby": lobby_id, "message": own["id"], **body})
        assert (refused.status_code, refused.json()["code"]) == (400, "chat/moderation-refused")
        hidden = cara.post(
            f"/api/chat/{route}", {"lobby": lobby_id, "message": raven["id"], **body}
        )
        assert (hidden.status_code, hidden.json()["code"]) == (404, "online/not-found")
    spectator = TestClient(online_app)
    nobody = spectator.post("/api/chat/blocks", json={"lobby": lobby_id, "message": own["id"]})
    assert (nobody.status_code, nobody.json()["code"]) == (401, "online/unknown-player")
    no_reason = cara.post("/api/chat/reports", {"lobby": lobby_id, "message": own["id"]})
    assert no_reason.json()["code"] == "chat/moderation-refused"


def test_a_report_is_stored_with_its_line_and_listed_by_the_operator_command(
    online_app: Any, player: Any, tmp_path: Path
) -> None:
    """Cara reports Bob's line with a reason; ``westeros server reports`` (its own process,
    the server's database) lists it with the line, its writer, the reporter and the
    reason, as text and as JSON; reporting it again keeps one report."""
    _alice, bob, cara, lobby = _table(player)
    lobby_id = lobby["id"]
    assert "No reports." in _operator(tmp_path, "reports").stdout
    with bob.client.websocket_connect(f"/ws/lobbies/{lobby_id}") as b:
        receive_until(b, lambda m: m["type"] == "roster")
        b.send_json({"type": "chat", "text": "you all smell of fish"})
        line = receive_until(b, _chat)
    body = {"lobby": lobby_id, "message": line["id"], "reason": "insults the table"}
    first = cara.post("/api/chat/reports", body)
    assert first.status_code == 200, first.text
    assert cara.post("/api/chat/reports", body).json() == first.json()

    listed = _operator(tmp_path, "reports", "--json")
    assert listed.returncode == 0
    (report,) = json.loads(listed.stdout)
    assert report["id"] == first.json()["report"]
    assert (report["text"], report["sender_name"], report["sender_id"]) == (
        "you all smell of fish",
        "Bob",
        bob.id,
    )
    assert (report["reporter_name"], report["reporter_id"]) == ("Cara", cara.id)
    assert (report["reason"], report["lobby_id"], report["house"]) == (
        "insults the table",
        lobby_id,
        "lannister",
    )
    text = _operator(tmp_path, "reports").stdout
    assert "you all smell of fish" in text and "insults the table" in text and bob.id in text


def test_a_banned_key_cannot_sit_chat_create_or_act_also_on_an_open_socket(
    online_app: Any, player: Any, tmp_path: Path
) -> None:
    """The operator bans Bob by his key while his board and lobby sockets are open: his next
    action is refused ``online/banned`` (nothing stored), his next chat ``chat/banned``; he
    can neither open his board again, nor take or join a seat, nor create a lobby
    (``online/banned`` each). Unbanned, he plays again."""
    alice, bob, _cara, lobby = _table(player)
    lobby_id, game_id = lobby["id"], lobby["game_id"]
    store = online_app.state.online.store
    other = alice.post("/api/lobbies", {"players": 3, "house": "stark"}).json()
    invite = other["invites"]["baratheon"].split("#invite=", 1)[1]
    board_path = f"/ws/games/{game_id}/seats/lannister"
    with (
        bob.client.websocket_connect(board_path) as board,
        bob.client.websocket_connect(f"/ws/lobbies/{lobby_id}") as chat,
    ):
        view = receive_until(board, lambda m: m["type"] == "view")
        receive_until(chat, lambda m: m["type"] == "roster")
        banned = _operator(tmp_path, "ban", bob.key, "--reason", "abuse")
        assert banned.returncode == 0 and "banned" in banned.stdout
        stored = len(store.game_log(game_id)[1])
        board.send_json(
            {
                "type": "action",
                "id": "a1",
                "action": decide(view["view"]),
                "state_id": view["state_id"],
            }
        )
        refused = receive_until(board, lambda m: m["type"] == "error")
        assert refused["code"] == "online/banned"
        assert len(store.game_log(game_id)[1]) == stored
        chat.send_json({"type": "chat", "text": "let me in", "id": "c1"})
        assert receive_until(chat, lambda m: m["type"] == "error")["code"] == "chat/banned"
    assert "let me in" not in _history(alice, lobby_id)
    with bob.client.websocket_connect(board_path) as board:
        assert board.receive_json()["code"] == "online/banned"
    for path, body in (
        (f"/api/lobbies/{other['lobby']['id']}/take", {"house": "lannister"}),
        ("/api/join", {"invite": invite}),
        ("/api/lobbies", {"players": 3}),
    ):
        reply = bob.post(path, body)
        assert (reply.status_code, reply.json()["code"]) == (403, "online/banned"), path

    assert _operator(tmp_path, "unban", bob.id).returncode == 0
    with bob.client.websocket_connect(board_path) as board:
        view = receive_until(board, lambda m: m["type"] == "view")
        board.send_json(
            {
                "type": "action",
                "id": "a2",
                "action": decide(view["view"]),
                "state_id": view["state_id"],
            }
        )
        assert receive_until(board, lambda m: m["type"] in ("accepted", "error"))["type"] == (
            "accepted"
        )


def test_a_muted_player_cannot_chat_but_plays_on(
    online_app: Any, player: Any, tmp_path: Path
) -> None:
    """Muted by his player id, Bob's chat is refused ``chat/muted`` on his open socket while
    his orders are accepted; unmuted, he chats again."""
    alice, bob, _cara, lobby = _table(player)
    lobby_id, game_id = lobby["id"], lobby["game_id"]
    with bob.client.websocket_connect(f"/ws/games/{game_id}/seats/lannister") as board:
        view = receive_until(board, lambda m: m["type"] == "view")
        assert _operator(tmp_path, "mute", bob.id).returncode == 0
        board.send_json({"type": "chat", "text": "hear me", "id": "c1"})
        assert receive_until(board, lambda m: m["type"] == "error")["code"] == "chat/muted"
        board.send_json(
            {
                "type": "action",
                "id": "a1",
                "action": decide(view["view"]),
                "state_id": view["state_id"],
            }
        )
        assert receive_until(board, lambda m: m["type"] in ("accepted", "error"))["type"] == (
            "accepted"
        )
        assert _operator(tmp_path, "unmute", bob.key).returncode == 0
        board.send_json({"type": "chat", "text": "hear me now"})
        assert receive_until(board, _chat)["text"] == "hear me now"
    assert _history(alice, lobby_id) == ["hear me now"]


def test_a_key_that_begins_with_a_dash_is_muted_after_double_dash_and_the_error_says_so(
    online_app: Any, tmp_path: Path
) -> None:
    """A client may choose its own key (``POST /api/players`` with ``key``), and an older server
    drew keys that begin with ``-``, which argparse reads as an option: the operator is told to
    give it after ``--``, and that mutes the player."""
    key = "-Qx_T0fbh9nSAPMOTWejk76z7laGPiRd5Su2dGdtHZg"  # the key CI's failing run drew
    client = TestClient(online_app)
    assert client.post("/api/players", json={"name": "Dash", "key": key}).status_code == 200
    refused = _operator(tmp_path, "mute", key)
    assert refused.returncode == 2
    assert "goes after '--': westeros server mute -- KEY" in refused.stderr
    muted = _operator(tmp_path, "mute", "--", key)
    assert muted.returncode == 0 and "Dash" in muted.stdout and "muted" in muted.stdout


def test_the_server_never_draws_a_key_that_begins_with_a_dash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Keys the server hands out are pasted on the operator's command line as they are."""
    drawn = iter(["-first", "-second", "third"])
    monkeypatch.setattr(keys.secrets, "token_urlsafe", lambda _n: next(drawn))
    assert keys.new_key() == "third"


def test_the_operator_commands_refuse_an_unknown_player_and_a_missing_database(
    online_app: Any, tmp_path: Path
) -> None:
    unknown = _operator(tmp_path, "ban", "no-such-player")
    assert unknown.returncode == 2 and "no-such-player" in unknown.stderr
    missing = subprocess.run(
        [
            sys.executable,
            "-m",
            "westeros.cli",
            "server",
            "reports",
            "--database",
            f"sqlite:///{tmp_path / 'nothing.db'}",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert missing.returncode == 2 and "no database file" in missing.stderr


def test_each_worker_closes_a_banned_player_s_board_at_its_next_presence_refresh(
    online_app: Any, player: Any
) -> None:
    """A banned player who sends nothing still loses their open board: the worker tells it
    ``online/banned`` and closes it (4403) at its next presence refresh (every 5 s), so
    that the seat goes to the AI after the grace period."""
    from starlette.websockets import WebSocketDisconnect

    _alice, bob, _cara, lobby = _table(player)
    hub = online_app.state.online.hub
    with bob.client.websocket_connect(f"/ws/games/{lobby['game_id']}/seats/lannister") as board:
        receive_until(board, lambda m: m["type"] == "view")
        hub.moderation.set_sanction(hub.moderation.find_player(bob.id), banned=True)
        told = receive_until(board, lambda m: m["type"] == "error")
        assert told["code"] == "online/banned"
        try:
            closed = receive_until(board, lambda m: False)
        except WebSocketDisconnect as exc:
            closed = exc.code
        assert closed == 4403
    wait_for(lambda: not hub.board_conns(lobby["id"]), timeout=10)
