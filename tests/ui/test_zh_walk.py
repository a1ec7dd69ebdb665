"""Simplified and Traditional Chinese in real Chromium: the start screen, the board through
several rounds of a game (every decision the board asks, each checked when it appears), the log,
the replay, the delete page and "How to play" show no English word in zh-CN or zh-TW mode, only
the proper names the glossary keeps (AI, key names), and in zh-TW no Simplified-only character
(issue 37 point 6). The language switch is remembered; the browser's language is the default.
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
TW_LABELS = {"Start over": "從頭開始", "more": "增加"}
LABELS = {"zh_CN": ZH_LABELS, "zh_TW": TW_LABELS}
HEADINGS = {"zh_CN": ("新游戏", "游戏记录"), "zh_TW": ("新遊戲", "遊戲記錄")}
SIMPLIFIED_ONLY = set("们这个为进军权战东门关见让说级发选择时间会对图将领骑铁维记录戏")
"""Characters of Simplified script only: a zh-TW page that shows one was not converted."""
LAST_ROUND = 4
MAX_DECISIONS = 120


def english_left(page: Page) -> list[str]:
    """Visible texts (and titles, labels, placeholders) of the page with an English word."""
    texts: list[str] = page.evaluate(VISIBLE_TEXT)
    return [t for t in texts if set(LATIN.findall(t)) - ALLOWED]


def assert_chinese(page: Page, where: str) -> None:
    left = english_left(page)
    assert not left, f"English text left on {where}: {left}"
    if page.locator("html").get_attribute("lang") == "zh-TW":
        texts: list[str] = page.evaluate(VISIBLE_TEXT)
        simplified = [t for t in texts if set(t) & SIMPLIFIED_ONLY]
        assert not simplified, f"Simplified characters on {where} in zh-TW: {simplified}"


def start_zh_game(
    page: Page,
    core: Any,
    players: int = 4,
    house: str = "stark",
    tides: bool = False,
    lang: str = "zh_CN",
) -> str:
    """Start a game from the start screen in ``lang``; returns its id."""
    page.goto(f"{core.url}/?token={core.token}&lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang.replace("_", "-"))
    page.locator(f"input[name=players][value='{players}']").check()
    page.locator(f"label.start-house[data-house={house}]").click()
    if tides:
        page.locator("input[name=tides_of_battle]").check()
    page.locator("input[name=seed]").fill(SEED)
    page.locator("form#new-game button[type=submit]").click()
    page.wait_for_url(re.compile(rf"/games/[^/]+/play/{house}$"))
    match = re.search(r"/games/([^/]+)/play/", page.url)
    assert match is not None
    return match.group(1)


@pytest.mark.parametrize("lang", ["zh_CN", "zh_TW"])
def test_start_screen_is_chinese_and_the_switch_is_remembered(
    page: Page, live_core: Any, artifacts: Path, lang: str
) -> None:
    heading = HEADINGS[lang][0]
    page.goto(f"{live_core.url}/?token={live_core.token}&lang={lang}")
    expect(page.get_by_role("heading", name=heading)).to_be_visible()
    assert_chinese(page, "the start screen")
    page.screenshot(path=str(artifacts / f"{lang}-start.png"), full_page=True)
    page.get_by_test_id("lang-en").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.goto(f"{live_core.url}/")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.get_by_test_id(f"lang-{lang}").click()
    expect(page.get_by_role("heading", name=heading)).to_be_visible()
    page.goto(f"{live_core.url}/")
    expect(page.get_by_role("heading", name=heading)).to_be_visible()


def test_the_browser_language_is_the_default(browser: Any, live_core: Any) -> None:
    for locale, heading in (
        ("zh-CN", "新游戏"),
        ("zh-TW", "新遊戲"),
        ("zh-HK", "新遊戲"),
        ("en-US", "New game"),
    ):
        context = browser.new_context(locale=locale)
        try:
            page = context.new_page()
            page.goto(f"{live_core.url}/?token={live_core.token}")
            expect(page.get_by_role("heading", name=heading)).to_be_visible()
        finally:
            context.close()


ORDER_MIX = ("raid", "support", "consolidate_power", "march", "defense")


def varied_orders(page: Page) -> dict[str, str]:
    """A preferred order type per area that changes with the round, so that Raid, Support and
    Consolidate Power decisions come up too."""
    rows = page.locator("[data-testid^=order-area-]").all()
    areas = [(r.get_attribute("data-testid") or "").removeprefix("order-area-") for r in rows]
    start = driver.round_number(page)
    return {a: ORDER_MIX[(start + i) % len(ORDER_MIX)] for i, a in enumerate(areas)}


def walk(
    page: Page, artifacts: Path | None, last_round: int, vary: bool = False
) -> tuple[dict[str, int], set[str]]:
    """Answer every decision until ``last_round``, checking each for English text first;
    returns how often each kind came up and the phase labels seen."""
    played = driver.Played()
    seen: dict[str, int] = {}
    phases: set[str] = set()
    for _ in range(MAX_DECISIONS):
        if not driver.wait_for_decision(page, last_round):
            break
        kind = driver.prompt_kind(page)
        page.locator("#prompt .prompt-title").first.wait_for()
        phase = page.locator("#round-info .phase").inner_text()
        assert phase.strip(), f"blank phase label during {kind}"
        assert_chinese(page, f"the board asking {kind!r} (round {driver.round_number(page)})")
        if artifacts is not None and kind not in seen:
            page.screenshot(path=str(artifacts / f"zh-board-{kind}.png"))
        if artifacts is not None and phase not in phases:
            page.screenshot(path=str(artifacts / f"zh-phase-{len(phases) + 1}.png"))
        if artifacts is not None and kind == "choose_house_card":
            page.get_by_test_id("combat").screenshot(path=str(artifacts / "zh-combat.png"))
        phases.add(phase)
        seen[kind] = seen.get(kind, 0) + 1
        prefer = varied_orders(page) if vary and kind == "place_orders" else None
        driver.play_one(page, played, prefer)
        after = page.locator("#round-info .phase").inner_text()
        assert after.strip(), f"blank phase label after answering {kind}"
    return seen, phases


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["zh_CN", "zh_TW"])
def test_a_game_in_chinese_shows_no_english(
    page: Page, live_core: Any, artifacts: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """Every decision of several rounds, the waiting board, the log, replay and delete page."""
    monkeypatch.setattr(driver, "LABELS", LABELS[lang])
    game = start_zh_game(page, live_core, lang=lang)
    expect(page.get_by_role("heading", name=HEADINGS[lang][1])).to_be_visible()
    shots = artifacts / lang
    shots.mkdir(exist_ok=True)
    seen, phases = walk(page, shots, LAST_ROUND)
    assert {"place_orders", "march", "choose_house_card"} <= set(seen), seen
    assert len(phases) >= 3, phases
    assert_chinese(page, "the board")
    log = page.get_by_test_id("log")
    assert log.locator("li").count() > 10
    log.screenshot(path=str(shots / "zh-log.png"))
    page.locator("#help-open").click()
    assert_chinese(page, "the keyboard help")
    page.keyboard.press("Escape")
    page.goto(f"{live_core.url}/games/{game}/replay/stark")
    page.wait_for_load_state("networkidle")
    assert_chinese(page, "the replay")
    page.screenshot(path=str(shots / "zh-replay.png"))
    page.goto(f"{live_core.url}/games/{game}/delete")
    assert_chinese(page, "the delete page")
    page.goto(f"{live_core.url}/help")
    assert_chinese(page, "the how-to-play page")
    page.goto(f"{live_core.url}/")
    assert_chinese(page, "the start screen with a saved game")


@pytest.mark.slow
def test_six_houses_with_tides_of_battle_in_chinese(
    page: Page, live_core: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lannister (the Messenger Raven) among six houses, Tides of Battle on, Raid, Support and
    Consolidate Power orders placed: those decisions show no English either."""
    monkeypatch.setattr(driver, "LABELS", ZH_LABELS)
    start_zh_game(page, live_core, players=6, house="lannister", tides=True)
    seen, _ = walk(page, None, LAST_ROUND + 1, vary=True)
    assert {"place_orders", "messenger_raven"} <= set(seen), seen
    assert set(seen) & {"raid", "declare_support", "consolidate_power"}, seen
    assert_chinese(page, "the six-house board")


@pytest.mark.parametrize(
    ("lang", "joined"), [("en", "Winterfell, The Eyrie"), ("zh_CN", "Winterfell、The Eyrie")]
)
def test_a_list_in_a_sentence_is_joined_as_the_language_writes_lists(
    page: Page, live_core: Any, lang: str, joined: str
) -> None:
    """Areas, cards and houses listed in one sentence (support areas, a hand's choices, the
    standings of a vote) are joined by the page's list separator: 、 in Chinese, not ", "."""
    page.goto(f"{live_core.url}/?token={live_core.token}&lang={lang}")
    shown = page.evaluate(
        """async () => {
          const i18n = await import("/static/js/i18n.js");
          await i18n.loadCatalog(document.documentElement.lang);
          return i18n.listed(["Winterfell", "The Eyrie"]);
        }"""
    )
    assert shown == joined
