"""Vassals on the board (RULES.md 11.2.5, 11.10), in Chromium against the real core: the person
starts a 4-player Mother of Dragons game with vassals by clicks on the new-game screen (only the
player houses can be picked), claims Arryn on the claim-vassals screen (11.10.3: at most its
allowance, here 1), places its own orders and then, once every player has placed its own,
places two of Arryn's four vassal orders (11.10.4); the revealed map shows them as Arryn's."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from .driver import Played, place_orders, start_on_screen
from .live import LiveCore

PERSON = "baratheon"
VASSAL = "arryn"
SEED = "4711"
OPTIONS = ["mother_of_dragons", "mod_vassals"]
ORDERS = {"the-eyrie": "vassal-defense+3", "the-vale-of-arryn": "vassal-march+0"}
LATIN = re.compile(r"[A-Za-z]{3,}")


def open_new_game(page: Page, core: LiveCore) -> None:
    """The new-game screen with Mother of Dragons and vassals ticked, 4 players."""
    page.goto(f"{core.url}/?token={core.token}&lang=en")
    page.locator("input[name=mother_of_dragons]").check()
    vassals = page.locator("input[name=mod_vassals]")
    expect(vassals).to_be_enabled()
    vassals.check()
    page.locator("input[name=players][value='4']").check()


def test_11_2_5_the_new_game_screen_offers_vassals_with_mother_of_dragons_only(
    page: Page, live_core: LiveCore
) -> None:
    page.goto(f"{live_core.url}/?token={live_core.token}&lang=en")
    expect(page.locator("input[name=mod_vassals]")).to_be_disabled()
    expect(page.locator("label[data-option=mod_vassals]")).to_contain_text("Vassals")
    open_new_game(page, live_core)
    for house in ("baratheon", "lannister", "stark", "greyjoy", "tyrell", "martell", "arryn"):
        expect(page.locator(f"label.start-house[data-house={house}] input")).to_be_enabled()


def test_11_10_3_the_person_claims_a_vassal_and_places_its_orders_by_clicks(
    page: Page, live_core: LiveCore
) -> None:
    game_id = start_on_screen(page, live_core, PERSON, 4, SEED, OPTIONS)
    prompt = page.get_by_test_id("prompt")
    expect(page.locator("body[data-prompt=claim_vassals]")).to_be_attached()
    expect(prompt).to_contain_text("Claim vassals")
    for house in ("tyrell", "martell", VASSAL):
        expect(page.get_by_test_id(f"claim-{house}")).to_be_enabled()
    page.get_by_test_id(f"claim-{VASSAL}").click()
    expect(page.get_by_test_id(f"claim-{VASSAL}")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("claim-tyrell")).to_be_disabled()  # an allowance of 1 (11.10.3)
    expect(page.get_by_test_id("commit")).to_have_text("Claim 1 vassal")
    page.screenshot(path="artifacts/mod-vassals-claim.png")
    page.get_by_test_id("commit").click()

    panel = page.get_by_test_id("plugin-panel-vassals")
    expect(panel.locator(f"li[data-house={VASSAL}]")).to_contain_text("commanded by you")
    expect(page.locator("body[data-prompt=place_orders]")).to_be_attached()
    expect(prompt).to_have_attribute("data-for", PERSON)
    place_orders(page, Played())

    expect(prompt).to_have_attribute("data-for", VASSAL, timeout=30_000)
    expect(page.get_by_test_id("answering-for")).to_contain_text("Arryn")
    expect(prompt).to_contain_text("Place the orders of Arryn")
    expect(page.get_by_test_id("token-march+0")).to_have_count(0)  # the vassal's tokens only
    for area, token in ORDERS.items():
        page.get_by_test_id(f"order-area-{area}").click()
        page.get_by_test_id(f"token-{token}").click()
    expect(page.get_by_test_id("orders-count")).to_contain_text("2 of at most 2")
    page.get_by_test_id("order-area-the-bite").click()
    expect(page.get_by_test_id("token-vassal-defense+1-muster")).to_be_disabled()
    expect(page.get_by_test_id("commit")).to_be_enabled()
    page.screenshot(path="artifacts/mod-vassals-orders.png")
    page.get_by_test_id("commit").click()

    for area, token in ORDERS.items():
        piece = page.locator(f"[data-testid=pieces-{area}] .w-order[data-order='{token}']")
        expect(piece).to_have_attribute("data-house", VASSAL, timeout=30_000)
    state = live_core.session(game_id).state
    assert dict(state.ext["vassal_commanders"])[VASSAL] == PERSON


def test_11_10_3_the_claim_screen_and_the_vassals_seats_speak_chinese(
    page: Page, live_core: LiveCore
) -> None:
    start_on_screen(page, live_core, PERSON, 4, SEED, OPTIONS, lang="zh-CN")
    expect(page.locator("body[data-prompt=claim_vassals]")).to_be_attached()
    prompt = page.get_by_test_id("prompt")
    expect(prompt).to_contain_text("认领附庸")
    page.get_by_test_id(f"claim-{VASSAL}").click()
    words = prompt.inner_text()
    assert not LATIN.findall(words), f"English on the zh-CN claim screen: {words}"
    page.get_by_test_id("commit").click()
    houses = page.get_by_test_id("houses")
    expect(houses.locator(f"[data-testid=house-{VASSAL}] .house-seat")).to_have_text("你的附庸")
    for other in ("tyrell", "martell"):  # claimed by the AIs after the person (11.10.3)
        seat = houses.locator(f"[data-testid=house-{other}] .house-seat")
        expect(seat).to_have_text(re.compile("^.+的附庸$"), timeout=30_000)
        expect(seat).not_to_have_text("你的附庸")
        assert not LATIN.findall(seat.inner_text()), seat.inner_text()
