"""Issue 35 finding 3, in Chromium: the online board of a game a plugin's rule fault paused
shows the pause banner naming the plugin, as the local board does (``paused.js``). The
online server (one worker, SQLite) runs under uvicorn in this process with the cursed plugin
of ``test_plugin_fault_online`` in its user plugin folder."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import decide
from .seat_helpers import (
    LiveOnline,
    Person,
    launch_context,
    live_online,
    page_post,
    receive_until,
    require_chromium,
)
from .test_plugin_fault_online import HOOK, PAUSE_WAIT_S, PLUGIN, SECRET, install_cursed


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveOnline]:
    require_chromium()
    install_cursed(tmp_path, monkeypatch)
    with live_online(tmp_path) as live:
        yield live


def test_the_online_board_of_a_paused_game_shows_the_banner_naming_the_plugin(
    server: LiveOnline, launch_chromium: Any
) -> None:
    """Issue 35 finding 3: Hal plays Stark on the online board page; once his orders are in,
    Lannister's AI runs the plugin's failing rule. The page shows the pause banner with the
    plugin's name, its hook and the exception's class, and never the exception's text."""
    from playwright.sync_api import expect

    base = server.url
    context = launch_context(launch_chromium)
    me = page_post(context, base, "/api/players", {"name": "Hal"})
    hal = Person("Hal", me["key"], me["id"], server)
    body = {"players": 3, "house": "stark", "open_houses": ["stark"], "ai_level": "baseline"}
    lobby = page_post(context, base, "/api/lobbies", {**body, "grace_seconds": 600})["lobby"]
    lobby_id = lobby["id"]
    game_id = page_post(context, base, f"/api/lobbies/{lobby_id}/start", {})["lobby"]["game_id"]

    page = context.new_page()
    page.goto(f"{base}/games/{game_id}/play/stark")
    banner = page.get_by_test_id("paused")
    expect(banner).to_be_hidden()
    with hal.socket(f"/ws/games/{game_id}/seats/stark") as board:
        first, _ = receive_until(board, lambda m: m.get("type") == "view")
        orders = {"type": "action", "id": "orders", "action": decide(first["view"])}
        board.send(json.dumps({**orders, "state_id": first["state_id"]}))
        receive_until(board, lambda m: m.get("type") == "paused", PAUSE_WAIT_S)

    expect(banner).to_be_visible()
    text = banner.inner_text()
    print("the online board's banner:", text)
    assert PLUGIN in text and HOOK in text and "RuntimeError" in text
    assert SECRET not in page.content()
    context.close()
