"""Issue 35 finding 18 (a), in real Chromium: a plugin whose client code throws (its map
drawing, its side panel, its top-bar label) no longer blanks the board. The influence tracks,
houses, hand and Westeros panels and the top bar are drawn; the plugin's failures are logged on
the console naming it, and a notice naming it appears only where it draws (the map and its own
panel). The plugin is a real single-file plugin in the user plugin folder, its script served
from tests/plugins/fixtures/bad_brush."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import expect

from .conftest import VIEWPORT

FIXTURE = Path(__file__).resolve().parents[1] / "plugins" / "fixtures" / "bad_brush"
PLUGIN = f"""
from westeros import hookimpl

@hookimpl
def register_static():
    return [("bad_brush", {str(FIXTURE)!r})]

@hookimpl
def register_client_scripts():
    return ["/static/bad_brush/bad_brush.js"]
"""


@pytest.fixture
def core(core_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The local core with the ``bad_brush`` plugin installed in the user plugin folder."""
    folder = tmp_path / "user-plugins"
    folder.mkdir()
    (folder / "bad_brush.py").write_text(PLUGIN)
    monkeypatch.setenv("WESTEROS_PLUGIN_DIR", str(folder))
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "0")
    return core_factory()


def test_a_throwing_decorate_leaves_the_board_whole_with_a_notice_naming_the_plugin(
    core: Any, browser: Any, artifacts: Path
) -> None:
    """Issue 35 finding 18 (a): every panel and the top bar are drawn although the plugin's
    ``decorate`` and panel throw; its notices name it and sit only on the map and
    in its own panel; the console names it and shows no other error."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    try:
        page.goto(f"{core.url}/?token={core.token}")
        page.locator("input[name=players][value='3']").check()
        page.locator("label.start-house[data-house=stark]").click()
        page.locator("input[name=seed]").fill("5")
        page.locator("form#new-game button[type=submit]").click()
        page.wait_for_url(re.compile(r"/games/[^/]+/play/stark$"))
        page.wait_for_function("() => document.body.dataset.prompt === 'place_orders'")

        expect(page.get_by_test_id("houses")).to_contain_text("Lannister")
        expect(page.get_by_test_id("tracks")).not_to_be_empty()
        expect(page.get_by_test_id("westeros")).not_to_be_empty()
        expect(page.locator("#hand")).to_contain_text("Eddard Stark")
        expect(page.get_by_test_id("round")).to_contain_text("1")

        notices = page.get_by_test_id("plugin-fault-bad_brush")
        expect(notices).to_have_count(2)
        expect(page.locator("#map-pane").get_by_test_id("plugin-fault-bad_brush")).to_contain_text(
            "bad_brush"
        )
        expect(
            page.get_by_test_id("plugin-panel-bad_brush").get_by_test_id("plugin-fault-bad_brush")
        ).to_contain_text("bad_brush")
        page.screenshot(path=str(artifacts / "plugin-client-fault.png"))
        for panel in ("houses", "tracks", "westeros", "prompt"):
            expect(
                page.get_by_test_id(panel).get_by_test_id("plugin-fault-bad_brush")
            ).to_have_count(0)
    finally:
        context.close()
    print("console errors:", errors)
    assert errors, "the plugin's failures were not logged"
    assert all(e.startswith("plugin bad_brush:") for e in errors), errors
    assert {e.split(":")[1].strip().split(" failed")[0] for e in errors} == {
        "its decorate",
        "its panel bad_brush",
    }
