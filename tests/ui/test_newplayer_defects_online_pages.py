"""Issue 37 point 4: the online host page (local core) and the online server's lobby pages are
readable: every text has a WCAG AA contrast (4.5:1) with the background it is drawn on, read
from Chromium's computed colours, and each tick box sits next to its words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from ..online.seat_helpers import live_online, page_post, register_in_page
from .live import LiveCore
from .test_board_fixes import READABLE, contrast

TEXTS = "main h1, main h2, main p, main label, main legend, main th, main td, main li"
COLOURS = """sel => [...document.querySelectorAll(sel)]
  .filter(el => el.offsetParent !== null && el.innerText.trim())
  .map(el => {
    let bg = el;
    while (bg && getComputedStyle(bg).backgroundColor.match(/rgba\\(.*, 0\\)|transparent/))
      bg = bg.parentElement;
    return [el.innerText.trim().slice(0, 40), getComputedStyle(el).color,
            getComputedStyle(bg || document.body).backgroundColor];
  })"""
"""Each visible text element: its text, colour and the colour of the nearest background."""
GAPS = """() => [...document.querySelectorAll("main label")]
  .map(label => [label, label.querySelector("input[type=checkbox], input[type=radio]")])
  .filter(([label, box]) => box && label.offsetParent !== null)
  .map(([label, box]) => {
    const text = [...label.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
    const range = document.createRange();
    range.selectNodeContents(text);
    const words = range.getBoundingClientRect();
    const tick = box.getBoundingClientRect();
    return [label.innerText.trim().slice(0, 40), words.left - tick.right,
            Math.abs((words.top + words.bottom) / 2 - (tick.top + tick.bottom) / 2)];
  })"""
"""Each tick box: its label's words, the gap to them and how far apart their middles are."""


def assert_readable(page: Page) -> int:
    """Every visible text of the page's main part reads at 4.5:1 at least; returns how many."""
    seen = page.evaluate(COLOURS, TEXTS)
    low = [(text, fg, bg) for text, fg, bg in seen if contrast(fg, bg) < READABLE]
    assert not low, low
    return len(seen)


def assert_ticks_by_their_words(page: Page) -> None:
    gaps = page.evaluate(GAPS)
    assert gaps
    for text, gap, off in gaps:
        assert 0 <= gap <= 12 and off <= 8, (text, gap, off)


def test_issue37_host_page_is_readable_with_ticks_by_their_words(
    page: Page, live_core: LiveCore, artifacts: Path
) -> None:
    """Issue 37 point 4: the host page's labels were rgb(45,36,26) on rgb(34,29,24) (about
    1.1:1) and its tick boxes sat away from their words."""
    page.goto(f"{live_core.url}/online/host?token={live_core.token}")
    expect(page.get_by_test_id("host-form")).to_be_visible()
    page.screenshot(path=str(artifacts / "newplayer-host-page.png"), full_page=True)
    assert assert_readable(page) > 10
    assert_ticks_by_their_words(page)


@pytest.fixture
def online_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The online game server (one process, SQLite) on a free port."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    pytest.importorskip("uvicorn", reason="the UI tests serve the app with uvicorn")
    with live_online(tmp_path) as live:
        yield live.url


def test_issue37_lobby_pages_and_chat_are_readable(
    page: Page, online_server: str, artifacts: Path
) -> None:
    """Issue 37 point 4: the lobby list, a lobby and its chat lines were nearly unreadable
    (ink on the dark background), and the lobby named the houses in lower case."""
    register_in_page(page, online_server, "Cersei")
    assert assert_readable(page) > 3
    body = {"players": 3, "house": "lannister", "name": "Three kings"}
    lobby = page_post(page.context, online_server, "/api/lobbies", body)["lobby"]
    page.goto(f"{online_server}/lobbies/{lobby['id']}")
    expect(page.get_by_test_id("lobby-name")).to_have_text("Three kings")
    expect(page.locator("#seats th[scope=row]")).to_have_count(3)
    shown = page.locator("#seats th[scope=row]").evaluate_all("ths => ths.map(t => t.innerText)")
    assert shown == ["Baratheon", "Lannister", "Stark"], shown  # as read, not "baratheon"
    page.get_by_test_id("chat-text").fill("Winter is coming")
    page.locator("#chat-form button[type=submit]").click()
    expect(page.locator(".chat-text")).to_have_text("Winter is coming")
    page.screenshot(path=str(artifacts / "newplayer-lobby-page.png"), full_page=True)
    assert assert_readable(page) > 3
    line, meta = page.locator(".chat-line").first, page.locator(".chat-meta").first
    for part in (line, meta):
        colour, opacity = part.evaluate(
            "el => [getComputedStyle(el).color, getComputedStyle(el).opacity]"
        )
        assert float(opacity) == 1.0, opacity
        background = page.evaluate(COLOURS, ".chat-line")[0][2]
        assert contrast(colour, background) >= READABLE, (colour, background)
