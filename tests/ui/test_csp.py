"""The escaping and CSP probes of issue 14 (Why 3), in real Chromium against the real core: a
hostile plugin (markup in its name and option texts) and a tampered database row run nothing,
show as text, and the board and replay work under the Content-Security-Policy with no
violation (the ``page`` fixture fails on any console error, and CSP violations are one)."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from tests.security.hostile import IMAGE, SCRIPT, HostileName, HostileOptions, tamper
from westeros.plugins import load

from .live import LiveCore

WATCH = """
window.violations = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
window.alert = window.confirm = window.prompt = () => { window.pwned = "dialog"; };
"""


def watched(page: Page) -> Page:
    page.add_init_script(WATCH)
    return page


def nothing_ran(page: Page) -> None:
    assert page.evaluate("window.pwned") is None
    assert page.evaluate("window.violations") == []
    assert page.locator("img[src=x], body script:not([src]):not([type])").count() == 0


def database_of(core: LiveCore) -> str:
    return str(core.app.state.core.store.engine.url.database)


def test_a_hostile_plugin_and_a_tampered_row_run_nothing_in_chromium(
    page: Page, core_factory: Any
) -> None:
    core: LiveCore = core_factory(plugins=load(extra=[HostileOptions(), HostileName()]))
    games = core.app.state.games
    session = games.create(players=3, human="stark", seed=8, start_ai=False)
    tamper(database_of(core), session.game_id)
    watched(page).goto(f"{core.url}/?token={core.token}")
    expect(page.locator("form#new-game")).to_be_visible()
    assert "token=" not in page.url  # the token left the address
    options = page.locator(".start-options")
    expect(options).to_contain_text(SCRIPT + IMAGE)  # the option's name, as text
    expect(options).to_contain_text(IMAGE)  # the plugin's name, as text
    row = page.locator(f"[data-testid=saved-game][data-game='{session.game_id}']")
    expect(row).to_contain_text(SCRIPT)  # the tampered game name, as text
    nothing_ran(page)
    page.goto(f"{core.url}/games/{session.game_id}/delete")
    expect(page.get_by_test_id("delete-game")).to_contain_text("Onerror=")  # the winner
    nothing_ran(page)


def test_the_board_and_replay_work_under_the_csp(page: Page, live_core: LiveCore) -> None:
    watched(page).goto(f"{live_core.url}/?token={live_core.token}")
    page.locator("input[name=players][value='3']").check()
    page.locator("label.start-house[data-house=stark]").click()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[^/]+/play/stark$"))
    expect(page.get_by_test_id("prompt")).not_to_contain_text("Connecting", timeout=30_000)
    expect(page.locator("[data-testid=pieces-winterfell] .w-unit").first).to_be_visible()
    land = page.locator(".land .area-shape").first
    assert land.evaluate("e => getComputedStyle(e).fill") == "rgb(232, 217, 173)"  # /map.css
    nothing_ran(page)
    game = re.findall(r"/games/([^/]+)/play/", page.url)[0]
    page.goto(f"{live_core.url}/games/{game}/replay/stark")
    page.wait_for_function("() => document.body.dataset.step !== undefined")
    nothing_ran(page)


def test_another_local_page_cannot_frame_the_start_screen(
    browser: Any, live_core: LiveCore
) -> None:
    """``frame-ancestors 'none'``: a page of another origin (here a data page standing in for
    a page on another 127.0.0.1 port) gets no start screen to click through."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{live_core.url}/?token={live_core.token}")  # the cookie is set
        page.set_content(f'<iframe src="{live_core.url}/" width="800" height="600"></iframe>')
        page.wait_for_timeout(1000)
        (frame,) = [f for f in page.frames if f != page.main_frame]
        assert frame.locator("form#new-game").count() == 0
    finally:
        context.close()
