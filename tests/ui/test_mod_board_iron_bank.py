"""The Iron Bank on the board (RULES.md 11.9), in Chromium against the real core: in a
7-player Mother of Dragons game with the Iron Bank, the panel shows the three loan slots with
their costs; the person (Stark) may put the Iron Bank order only in a sea area or port
(11.8.1), places it by clicks, and when it resolves (11.9.4) buys the loan on offer with the
panel's Buy button: the Power tokens are paid, the slot is empty and the panel lists the loan
under Stark. In zh-CN the panel shows no English."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from .driver import Played, play_one, prompt_kind, start_on_screen, wait_for_decision
from .live import LiveCore

PERSON = "stark"
SEA = "the-shivering-sea"
SEED = "7007"
LATIN = re.compile(r"[A-Za-z]")


def start(page: Page, core: LiveCore, lang: str = "en") -> str:
    """A 7-player Mother of Dragons game with the Iron Bank, Stark played by the person."""
    return start_on_screen(
        page, core, PERSON, 7, SEED, ["mother_of_dragons", "mod_iron_bank"], lang
    )


def test_11_9_4_the_person_buys_a_loan_by_clicks_in_the_iron_bank_panel(
    page: Page, live_core: LiveCore
) -> None:
    game_id = start(page, live_core)
    panel = page.get_by_test_id("plugin-panel-iron_bank")
    expect(panel).to_contain_text("Iron Bank")
    expect(panel.get_by_test_id("loan-slot-0")).to_contain_text("7 Power")
    expect(panel.get_by_test_id("loan-slot-1")).to_contain_text("4 Power")
    expect(panel.get_by_test_id("loan-slot-2")).to_contain_text("1 Power")
    offered = panel.get_by_test_id("loan-slot-0").get_attribute("data-loan") or ""
    assert offered, "round 1 puts a loan in the dearest slot (11.9.3)"
    expect(panel.get_by_test_id("loans-held")).to_contain_text("No house holds a loan.")

    # 11.8.1: the Iron Bank token fits the sea area only, not a land area.
    expect(page.locator("body[data-prompt=place_orders]")).to_be_attached()
    page.get_by_test_id("order-area-winterfell").click()
    expect(page.get_by_test_id("token-iron-bank")).to_be_disabled()
    page.get_by_test_id(f"order-area-{SEA}").click()
    expect(page.get_by_test_id("token-iron-bank")).to_be_enabled()
    page.get_by_test_id("token-iron-bank").click()
    expect(page.locator(f"[data-testid=pieces-{SEA}] .w-order.is-limited")).to_have_count(1)
    page.screenshot(path="artifacts/mod-board-iron-bank-orders.png")
    page.locator(f"li.order-row[data-area={SEA}] button.button-small").click()

    played = Played()
    play_one(page, played, prefer={SEA: "iron-bank"})
    assert played.orders[SEA] == "iron-bank"
    power_before = live_core.session(game_id).state.power[PERSON]
    while prompt_kind(page) != "iron_bank_loan":
        assert wait_for_decision(page, until_round=2), "the Iron Bank order never resolved"
        if prompt_kind(page) == "iron_bank_loan":
            break
        power_before = live_core.session(game_id).state.power[PERSON]
        play_one(page, played)
    buy = panel.get_by_test_id(f"buy-{offered}")
    expect(buy).to_contain_text("Buy for")
    expect(page.get_by_test_id("prompt")).to_contain_text("The Iron Bank")
    page.screenshot(path="artifacts/mod-board-iron-bank-buy.png")
    buy.click()
    expect(panel.get_by_test_id("loans-held").locator(f"li[data-house={PERSON}]")).to_be_visible()
    expect(panel.get_by_test_id("loan-slot-0")).to_contain_text("empty slot")
    state = live_core.session(game_id).state
    assert (PERSON, offered) in state.ext["iron_bank_loans"]
    assert state.power[PERSON] < power_before
    page.screenshot(path="artifacts/mod-board-iron-bank-bought.png")


def test_11_9_zh_cn_iron_bank_panel_has_no_english(page: Page, live_core: LiveCore) -> None:
    start(page, live_core, lang="zh-CN")
    panel = page.get_by_test_id("plugin-panel-iron_bank")
    expect(panel.get_by_test_id("loan-slot-0")).to_be_visible()
    text = panel.inner_text()
    page.screenshot(path="artifacts/mod-board-iron-bank-zh.png")
    assert not LATIN.search(text), text
