"""Setup choices on the start screen (issue 13.6), in Chromium against the real core with the
game's own AI (the plugins' personalities): a personality per AI seat, recorded and kept when
the game is resumed; the AI levels in order of strength, each with a one-line description (en
and zh-CN); a game's name on the board and in the Continue list; the Continue/Load list shows
name, houses (person or AI), AI level, options, round and when the game was last played."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from .live import LiveCore

FOUR_PLAYER_AI = ("lannister", "baratheon", "greyjoy")  # RULES 2.1: Stark plays, these are AI
REGISTERED = {"The Conqueror", "The Turtle", "The Power Broker", "The Opportunist"}
BY_STRENGTH = ["baseline", "standard", "normal", "hard"]
"""Weakest first: Easy is the baseline policy, Standard the rule-of-thumb Standard AI, Normal and
Hard search on top of the baseline policy, Hard with the larger budget (ai/difficulty.py)."""
CJK = re.compile(r"[\u4e00-\u9fff]")


def start_page(page: Page, core: LiveCore, lang: str = "en") -> None:
    page.goto(f"{core.url}/?token={core.token}&lang={lang}")


def seat_line(page: Page, house: str) -> str:
    """The board's seat list line of ``house`` (the list is a <details> in the top bar)."""
    seats = page.get_by_test_id("seat-list")
    if seats.get_attribute("open") is None:
        seats.locator("summary").click()
    return seats.locator(f"li[data-seat={house}]").inner_text()


def test_personalities_are_chosen_per_ai_seat_shown_and_kept_on_resume(
    page: Page, core_factory: Callable[..., LiveCore]
) -> None:
    core = core_factory(ai_factory=None)  # the game's own AI, with the plugins' personalities
    start_page(page, core)
    page.locator("input[name=players][value='4']").check()
    page.locator("label.start-house[data-house=stark]").click()
    # Only the AI seats of the chosen count offer a personality; your own house says "you".
    expect(page.get_by_test_id("personality-stark")).to_be_hidden()
    expect(page.locator(".start-personality[data-house=stark]")).to_contain_text("you")
    expect(page.get_by_test_id("personality-martell")).to_be_hidden()
    for house in FOUR_PLAYER_AI:
        expect(page.get_by_test_id(f"personality-{house}")).to_be_visible()
    page.get_by_test_id("personality-lannister").select_option(label="The Conqueror")
    page.get_by_test_id("personality-baratheon").select_option(label="The Turtle")
    page.get_by_test_id("personality-greyjoy").select_option(label="Any (drawn at random)")
    page.locator("input[name=ai_level][value=standard]").check()
    page.get_by_test_id("game-name").fill("  Winter <is> coming & more  ")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[^/]+/play/stark$"))
    game_id = re.findall(r"/games/([^/]+)/play/stark$", page.url)[0]

    expect(page.get_by_test_id("game-name")).to_have_text("Winter <is> coming & more")
    expect(page).to_have_title(re.compile(r"Winter <is> coming & more · "))
    assert seat_line(page, "lannister") == "Lannister: AI · Standard · The Conqueror"
    assert seat_line(page, "baratheon") == "Baratheon: AI · Standard · The Turtle"
    drawn = seat_line(page, "greyjoy").removeprefix("Greyjoy: AI · Standard · ")
    assert drawn in REGISTERED
    assert seat_line(page, "stark") == "Stark: a person"
    chosen = {"lannister": "conqueror", "baratheon": "turtle"}
    session = core.session(game_id)
    assert {h: session.players[h].personality.id for h in chosen} == chosen
    greyjoy = session.players["greyjoy"].personality

    # Resume: the game leaves memory (as when the app is closed) and is rebuilt from the store.
    core.app.state.games.forget(game_id)
    page.reload()
    assert seat_line(page, "lannister") == "Lannister: AI · Standard · The Conqueror"
    assert seat_line(page, "baratheon") == "Baratheon: AI · Standard · The Turtle"
    assert seat_line(page, "greyjoy") == f"Greyjoy: AI · Standard · {drawn}"
    resumed = core.session(game_id)
    assert resumed is not session
    assert {h: resumed.players[h].personality.id for h in chosen} == chosen
    assert resumed.players["greyjoy"].personality.id == greyjoy.id

    start_page(page, core)
    row = page.get_by_test_id("continue").locator(f"[data-game='{game_id}']")
    expect(row.locator("[data-field=name]")).to_have_text("Winter <is> coming & more")
    expect(row.locator("[data-seat=lannister]")).to_have_text("Lannister: AI The Conqueror")
    expect(row.locator("[data-seat=stark]")).to_have_text("Stark: a person")


def test_ai_levels_are_listed_weakest_first_each_with_a_description(
    page: Page, live_core: LiveCore
) -> None:
    described: dict[str, dict[str, str]] = {}
    for lang in ("en", "zh_CN"):
        start_page(page, live_core, lang)
        levels = page.get_by_test_id("ai-levels").locator("label.start-level")
        assert [lv.get_attribute("data-level") for lv in levels.all()] == BY_STRENGTH
        described[lang] = {
            str(lv.get_attribute("data-level")): lv.locator(".start-level-text").inner_text()
            for lv in levels.all()
        }
        assert all(len(text) > 10 for text in described[lang].values()), described[lang]
        assert len(set(described[lang].values())) == len(BY_STRENGTH)
    assert all(CJK.search(text) for text in described["zh_CN"].values())
    assert "strongest" in described["en"]["hard"]
    assert "a few plans" in described["en"]["standard"]
    # the baseline AI (Easy) stays the level chosen when nothing is picked
    start_page(page, live_core)
    expect(page.locator("input[name=ai_level][value=baseline]")).to_be_checked()


def test_the_continue_and_load_lists_show_the_setup_of_each_game(
    page: Page, live_core: LiveCore
) -> None:
    start_page(page, live_core)
    page.locator("input[name=players][value='3']").check()
    page.locator("label.start-house[data-house=stark]").click()
    page.locator("input[name=ai_level][value=hard]").check()
    page.locator("input[name=tides_of_battle]").check()
    page.locator("input[name=plugin][value=westeros_ports]").uncheck()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[^/]+/play/stark$"))
    first = re.findall(r"/games/([^/]+)/play/stark$", page.url)[0]
    expect(page.get_by_test_id("game-name")).to_have_count(0)  # no name given

    start_page(page, live_core)
    page.locator("input[name=players][value='3']").check()
    page.locator("label.start-house[data-house=lannister]").click()
    page.get_by_test_id("game-name").fill("Second")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[^/]+/play/lannister$"))
    second = re.findall(r"/games/([^/]+)/play/lannister$", page.url)[0]

    start_page(page, live_core)
    latest = page.get_by_test_id("continue").locator(f"[data-game='{second}']")
    expect(latest.locator("[data-field=name]")).to_have_text("Second")
    expect(latest.locator("[data-field=level]")).to_have_text("AI level: Easy")
    expect(latest.locator("[data-field=options]")).to_have_text("Options: Ports")
    expect(latest.locator("[data-field=round]")).to_have_text("Round 1")
    expect(latest.locator("[data-seat=lannister]")).to_have_text("Lannister: a person")
    expect(latest.locator("[data-seat=stark]")).to_have_text("Stark: AI Balanced")
    just_now = re.compile(r"^(now|\d+ seconds? ago) \(.*\d{4}.*\)$")  # relative (absolute)
    expect(latest.locator("[data-field=date]")).to_have_text(just_now)

    older = page.get_by_test_id("load").locator(f"[data-game='{first}']")
    expect(older.locator("[data-field=name]")).to_have_count(0)
    expect(older.locator("[data-field=house]")).to_have_text("Stark")
    expect(older.locator("[data-field=level]")).to_have_text("AI level: Hard")
    expect(older.locator("[data-field=options]")).to_have_text("Options: Tides of Battle")
    expect(older.locator("[data-seat=baratheon]")).to_have_text("Baratheon: AI Balanced")
    recent = re.compile(r"^(now|\d+ seconds? ago|1 minute ago) \(.*\d{4}.*\)$")
    expect(older.locator("[data-field=date]")).to_have_text(recent)

    start_page(page, live_core, "zh_CN")
    latest = page.get_by_test_id("continue").locator(f"[data-game='{second}']")
    expect(latest.locator("[data-field=options]")).to_have_text("选项： 港口")
    zh_just_now = re.compile(r"^(现在|\d+\s*秒钟前).*\d{4}")
    expect(latest.locator("[data-field=date]")).to_have_text(zh_just_now)


def test_a_name_that_is_too_long_is_refused_with_the_reason(
    browser: Any, live_core: LiveCore
) -> None:
    """Its own page: the refused form is answered with HTTP 400, which Chromium reports as a
    console error — the only one allowed here."""
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        start_page(page, live_core)
        name = page.get_by_test_id("game-name")
        assert name.get_attribute("maxlength") == "80"
        # a client that ignores maxlength (or a hand-made form) is refused by the server
        name.evaluate("input => input.removeAttribute('maxlength')")
        name.fill("x" * 81)
        page.get_by_role("button", name="Start the game").click()
        expect(page.get_by_role("alert")).to_contain_text("at most 80 characters")
        assert live_core.app.state.games.store.list_games() == []
    finally:
        context.close()
    assert all("status of 400" in e for e in errors), errors
