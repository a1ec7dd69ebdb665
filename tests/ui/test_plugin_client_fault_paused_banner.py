"""Issue 35 finding 3 on the board, in real Chromium: when a plugin's rule fails on an AI's
move, the board of the person's seat shows a banner naming the plugin and what to do, instead
of "Waiting for: Lannister" forever. The plugin is a real single-file plugin in the user plugin
folder; the engine, the store and the AI seats are the real ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import expect

from .driver import Played, place_orders

PLUGIN = "cursed_ravens"
# 3 players: Lannister (an AI) holds the Messenger Raven; its raven decision ends Planning and
# the raid loop's start, where this plugin fails, follows it (4.4, 5.1).
CURSED = """
from westeros import hookimpl

@hookimpl
def rule_order_loop_start(options):
    def loop_start(state, order_type):
        if order_type == "raid":
            raise RuntimeError("the ravens are cursed")

    return loop_start
"""


def test_a_plugin_fault_on_an_ai_move_shows_a_banner_naming_the_plugin(
    core_factory: Any,
    page: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    artifacts: Path,
) -> None:
    """Issue 35 finding 3: Stark places its orders; Lannister's AI then trips the plugin's
    failing rule; the board shows the banner naming the plugin, its hook and what to do, and
    the game stays at the state before the failed move."""
    folder = tmp_path / "user-plugins"
    folder.mkdir()
    (folder / f"{PLUGIN}.py").write_text(CURSED)
    monkeypatch.setenv("WESTEROS_PLUGIN_DIR", str(folder))
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "0")
    core = core_factory()
    page.goto(f"{core.url}/?token={core.token}")
    session = core.app.state.games.create(players=3, human="stark", seed=5)
    page.goto(f"{core.url}/games/{session.game_id}/play/stark")
    page.wait_for_function("() => document.body.dataset.prompt === 'place_orders'")
    place_orders(page, Played())

    banner = page.get_by_test_id("paused")
    expect(banner).to_be_visible(timeout=30_000)
    expect(banner).to_contain_text(f"the {PLUGIN} plugin failed")
    expect(banner).to_contain_text("rule_order_loop_start")
    expect(banner).to_contain_text("Update the plugin, restart Westeros and continue this game")
    page.screenshot(path=str(artifacts / "plugin-fault-paused-banner.png"))
    assert session.paused is not None and session.paused.plugin == PLUGIN
    stored = len(core.app.state.games.store.game_log(session.game_id)[1])
    assert stored == session.serial
