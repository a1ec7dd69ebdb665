"""Simplified Chinese in real Chromium: the start screen, the board through several rounds of a
game (every decision the board asks, each checked when it appears), the log, the replay and
the delete page show no English word in zh-CN mode, only the proper names the glossary keeps
(AI, key names). The language switch is remembered; the browser's language is the default.
Screenshots go to artifacts/ (start screen, the board in each phase, a combat, the log)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")
from playwright.sync_api import Page, expect

from . import driver
from .test_board import SEED

ALLOWED = {"AI", "JSON", "II", "III", "IV"} | {
    "Ctrl",
    "Enter",
    "Tab",
    "Home",
    "End",
    "Page",
    "Up",
    "Down",
}
"""Latin words zh-CN keeps: the glossary's AI, key names, the file format, deck numerals."""
LATIN = re.compile(r"[A-Za-z]{2,}")
VISIBLE_TEXT = """() => {
  const out = [];
  const skip = 'script, style, [lang="en"], kbd, [hidden]';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || el.closest(skip) || !el.checkVisibility()) continue;
    const text = node.textContent.trim();
    if (text) out.push(text);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    if (el.closest(skip) || !el.checkVisibility()) continue;
    for (const name of ['title', 'aria-label', 'placeholder']) {
      const value = el.getAttribute(name);
      if (value) out.push(value);
    }
  }
  out.push(document.title);
  return out;
}"""
ZH_LABELS = {"Start over": "从头开始", "more": "增加"}
LAST_ROUND = 4
MAX_DECISIONS = 120


def english_left(page: Page) -> list[str]:
    """Visible texts (and titles, labels, placeholders) of the page with an English word."""
    texts: list[str] = page.evaluate(VISIBLE_TEXT)
    return [t for t in texts if set(LATIN.findall(t)) - ALLOWED]


def assert_chinese(page: Page, where: str) -> None:
    left = english_left(page)
    assert not left, f"English text left on {where}: {left}"


def start_zh_game(page: Page, core: Any, players: int = 4, house: str = "stark") -> str:
    page.goto(f"{core.url}/?token={core.token}&lang=zh_CN")
    expect(page.locator("html")).to_have_attribute("lang", "zh_CN")
    page.locator(f"input[name=players][value='{players}']").check()
    page.locator(f"label.start-house[data-house={house}]").click()
    page.locator("input[name=seed]").fill(SEED)
    page.locator("form#new-game button[type=submit]").click()
    page.wait_for_url(re.compile(rf"/games/[^/]+/play/{house}$"))
    match = re.search(r"/games/([^/]+)/play/", page.url)
    assert match is not None
    return match.group(1)


def test_start_screen_is_chinese_and_the_switch_is_remembered(
    page: Page, live_core: Any, artifacts: Path
) -> None:
    page.goto(f"{live_core.url}/?token={live_core.token}&lang=zh_CN")
    expect(page.get_by_role("heading", name="新游戏")).to_be_visible()
    assert_chinese(page, "the start screen")
    page.screenshot(path=str(artifacts / "zh-start.png"), full_page=True)
    page.get_by_test_id("lang-en").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.goto(f"{live_core.url}/")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.get_by_test_id("lang-zh_CN").click()
    expect(page.get_by_role("heading", name="新游戏")).to_be_visible()
    page.goto(f"{live_core.url}/")
    expect(page.get_by_role("heading", name="新游戏")).to_be_visible()


def test_the_browser_language_is_the_default(browser: Any, live_core: Any) -> None:
    for locale, heading in (("zh-CN", "新游戏"), ("en-US", "New game")):
        context = browser.new_context(locale=locale)
        try:
            page = context.new_page()
            page.goto(f"{live_core.url}/?token={live_core.token}")
            expect(page.get_by_role("heading", name=heading)).to_be_visible()
        finally:
            context.close()


def test_a_game_in_chinese_shows_no_english(
    page: Page, live_core: Any, artifacts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every decision of several rounds, the waiting board, the log, replay and delete page."""
    monkeypatch.setattr(driver, "LABELS", ZH_LABELS)
    game = start_zh_game(page, live_core)
    expect(page.get_by_role("heading", name="游戏记录")).to_be_visible()
    played = driver.Played()
    seen: dict[str, int] = {}
    phases: set[str] = set()
    for _ in range(MAX_DECISIONS):
        if not driver.wait_for_decision(page, LAST_ROUND):
            break
        kind = driver.prompt_kind(page)
        page.locator("#prompt .prompt-title").first.wait_for()
        phase = page.locator("#round-info .phase").inner_text()
        assert phase.strip(), f"blank phase label during {kind}"
        assert_chinese(page, f"the board asking {kind!r} (round {driver.round_number(page)})")
        if kind not in seen:
            page.screenshot(path=str(artifacts / f"zh-board-{kind}.png"))
        if phase not in phases:
            page.screenshot(path=str(artifacts / f"zh-phase-{len(phases) + 1}.png"))
            phases.add(phase)
        seen[kind] = seen.get(kind, 0) + 1
        if kind == "choose_house_card":
            page.get_by_test_id("combat").screenshot(path=str(artifacts / "zh-combat.png"))
        driver.play_one(page, played)
    assert {"place_orders", "march", "choose_house_card"} <= set(seen), seen
    assert len(phases) >= 3, phases
    assert_chinese(page, "the board")
    log = page.get_by_test_id("log")
    assert log.locator("li").count() > 10
    log.screenshot(path=str(artifacts / "zh-log.png"))
    page.locator("#help-open").click()
    assert_chinese(page, "the keyboard help")
    page.keyboard.press("Escape")
    page.goto(f"{live_core.url}/games/{game}/replay/stark")
    page.locator("body").wait_for()
    page.wait_for_load_state("networkidle")
    assert_chinese(page, "the replay")
    page.screenshot(path=str(artifacts / "zh-replay.png"))
    page.goto(f"{live_core.url}/games/{game}/delete")
    assert_chinese(page, "the delete page")
    page.goto(f"{live_core.url}/")
    assert_chinese(page, "the start screen with a saved game")
