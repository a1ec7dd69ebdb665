"""An online table's board (issue 13.7, docs/online.md) announces a waiting decision the way the
local board does (notify.js: title and sound at the default volume), while the settings panel
stands aside (the online server has no preferences route, and is never asked)."""

from __future__ import annotations

from typing import Any

import pytest

from ..ui.conftest import CHROMIUM, CHROMIUM_ARGS, VIEWPORT
from .seat_helpers import page_post, register_in_context
from .test_browser import server

__all__ = ["server"]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"needs Chromium at {CHROMIUM}")


def test_an_online_board_announces_a_decision_once_and_asks_for_no_settings(
    server: str, launch_chromium: Any
) -> None:
    from playwright.sync_api import ViewportSize, expect

    viewport: ViewportSize = {"width": VIEWPORT["width"], "height": VIEWPORT["height"]}
    browser = launch_chromium(CHROMIUM, CHROMIUM_ARGS)
    context = browser.new_context(viewport=viewport)
    register_in_context(context, server, "Cersei")
    created = page_post(
        context,
        server,
        "/api/lobbies",
        {"players": 3, "house": "lannister", "open_houses": ["lannister"], "name": "Alone"},
    )
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server}/lobbies/{created['lobby']['id']}")
    page.get_by_test_id("start").click()
    page.get_by_test_id("play").click()
    page.wait_for_url("**/play/lannister")
    expect(page).to_have_title("● Your move — Alone · Westeros — board")  # the orders of 4.1
    expect(page.get_by_test_id("settings-open")).to_be_hidden()
    expect(page.get_by_test_id("notify-sound")).to_have_count(1)
    assert not [url for url in asked if "/settings.json" in url]
    assert not errors, errors
