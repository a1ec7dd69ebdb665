"""Blocks at an anonymous table (issue 40; docs/online.md "Moderation"): blocking a line whose
writer one blocked before, at a named table, answers with the name the line shows now — never
the name kept with the earlier block, which would tell who plays the anonymous seat."""

from __future__ import annotations

from typing import Any

from .helpers import receive_until, start_game

LABEL = "Player of House Lannister"


def _line(person: Any, lobby_id: str, text: str) -> dict[str, Any]:
    """``person`` writes ``text`` in the public chat of ``lobby_id``; the line as sent."""
    with person.client.websocket_connect(f"/ws/lobbies/{lobby_id}") as ws:
        receive_until(ws, lambda m: m["type"] == "roster")
        ws.send_json({"type": "chat", "text": text})
        line: dict[str, Any] = receive_until(
            ws, lambda m: m["type"] == "chat" and m.get("text") == text
        )
    return line


def test_a_block_at_an_anonymous_table_never_names_someone_blocked_before(
    online_app: Any, player: Any
) -> None:
    alys, bors, cerys = player("Alys Qarth"), player("Bors Vinn"), player("Cerys Tul")
    named = start_game(alys, [(bors, "lannister"), (cerys, "baratheon")], grace_seconds=3600)
    before = _line(bors, named["id"], "a word at a named table")
    blocked = alys.post("/api/chat/blocks", {"lobby": named["id"], "message": before["id"]})
    assert blocked.json()["block"]["name"] == "Bors Vinn"

    created = alys.post(
        "/api/lobbies", {"players": 3, "house": "stark", "anonymous": True, "grace_seconds": 0}
    )
    assert created.status_code == 200, created.text
    hidden_id = created.json()["lobby"]["id"]
    for person, house in ((bors, "lannister"), (cerys, "baratheon")):
        token = created.json()["invites"][house].split("#invite=", 1)[1]
        assert person.post("/api/join", {"invite": token}).status_code == 200
    line = _line(bors, hidden_id, "a word at the anonymous table")
    assert line["name"] == LABEL

    again = alys.post("/api/chat/blocks", {"lobby": hidden_id, "message": line["id"]})
    assert again.status_code == 200, again.text
    assert again.json()["block"]["name"] == LABEL
    assert "Bors" not in again.text and "Vinn" not in again.text
