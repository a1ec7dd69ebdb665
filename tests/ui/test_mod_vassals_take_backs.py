"""Taking back a vassal's orders on the board (RULES.md 4.1, 11.10.4): the person who commands
Arryn places its orders and, while another vassal's commander (an AI) still decides, changes
them by clicks from the orders committed; the changed orders are the ones revealed as Arryn's.
On Arryn's screen the person may also go back to its own committed orders, and a change being
made stays as it is when another vassal's orders come in meanwhile.
The houses panel says who commands each vassal (11.10.3)."""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from westeros.engine.flow import pending

from .driver import Played, place_orders, start_on_screen
from .live import LiveCore, seeded_bots
from .test_mod_vassals_board import OPTIONS, ORDERS, PERSON, SEED, VASSAL

RELEASE_WAIT_S = 120.0  # only a guard so a broken test cannot hang forever
OTHERS = ("martell", "tyrell")
"""The vassals the AIs command (in the order the AI seats are asked)."""
CHANGED = {"the-eyrie": "vassal-raid-support+1", "the-vale-of-arryn": "vassal-march+0"}


class HeldVassals:
    """The game's own AI, which places the orders of a vassal it commands only once the test
    releases that vassal (its own orders at once), so the vassal orders stay open meanwhile."""

    def __init__(self, house: str, bot: Any, release: Mapping[str, threading.Event]) -> None:
        self.house = house
        self.bot = bot
        self.release = release

    def decide(self, view: Mapping[str, Any], rules: Any, budget: float) -> Any:
        prompt = view.get("prompt") or {}
        if prompt.get("kind") == "place_orders" and view["house"] != self.house:
            self.release[view["house"]].wait(RELEASE_WAIT_S)
        return self.bot.decide(view, rules, budget)


def test_4_1_11_10_4_the_commander_changes_its_vassals_orders_by_clicks(
    page: Page, core_factory: Any
) -> None:
    release = {vassal: threading.Event() for vassal in OTHERS}

    def bots(house: str, seat: Any) -> Any:
        return HeldVassals(house, seeded_bots(house, seat), release)

    core: LiveCore = core_factory(ai_factory=bots)
    try:
        game_id = start_on_screen(page, core, PERSON, 4, SEED, OPTIONS)
        prompt = page.get_by_test_id("prompt")
        page.get_by_test_id(f"claim-{VASSAL}").click()
        page.get_by_test_id("commit").click()
        houses = page.get_by_test_id("houses")
        expect(houses.locator(f"[data-testid=house-{VASSAL}] .house-seat")).to_have_text(
            "your vassal"
        )
        expect(page.locator("body[data-prompt=place_orders]")).to_be_attached()
        expect(prompt).to_have_attribute("data-for", PERSON)
        own = Played()
        place_orders(page, own)
        expect(prompt).to_have_attribute("data-for", VASSAL, timeout=30_000)
        # On Arryn's screen the person may still go back to its own orders (4.1).
        page.get_by_test_id("take-back").click()
        expect(prompt).to_have_attribute("data-for", PERSON)
        expect(prompt.get_by_role("heading")).to_have_text("Place your orders")
        for area in own.orders:
            expect(page.locator(f"li[data-area='{area}'] .order-placed")).to_be_visible()
        page.get_by_test_id("commit").click()
        expect(prompt).to_have_attribute("data-for", VASSAL)
        for area, token in ORDERS.items():
            page.get_by_test_id(f"order-area-{area}").click()
            page.get_by_test_id(f"token-{token}").click()
        page.get_by_test_id("commit").click()

        take_back = page.get_by_test_id(f"take-back-{VASSAL}")
        expect(take_back).to_have_text("Change the orders of Arryn")
        expect(page.get_by_test_id("take-back")).to_have_text("Change my orders")
        expect(houses.get_by_test_id(f"house-{VASSAL}").get_by_test_id("committed")).to_be_visible()
        state = core.session(game_id).state
        others = [v for v, c in state.ext["vassal_commanders"] if c != PERSON]
        assert others and set(pending(state)) == {others[0]}  # one vassal at a time (11.10.4)
        for vassal, commander in state.ext["vassal_commanders"]:
            if commander != PERSON:
                seat = houses.locator(f"[data-testid=house-{vassal}] .house-seat")
                expect(seat).to_have_text(f"vassal of {commander.capitalize()}")

        take_back.click()
        expect(prompt).to_have_attribute("data-for", VASSAL)
        expect(page.get_by_test_id("answering-for")).to_contain_text("Arryn")
        # The change starts from Arryn's orders as committed.
        for area, token in ORDERS.items():
            expect(page.locator(f"li[data-area='{area}'] .order-placed")).to_be_visible()
            expect(page.get_by_test_id(f"token-{token}")).to_have_class(re.compile("is-used"))
        page.get_by_test_id("order-area-the-eyrie").click()
        page.get_by_test_id(f"token-{CHANGED['the-eyrie']}").click()
        # Another vassal's orders come in meanwhile: the change being made stays as it is.
        first, last = OTHERS
        release[first].set()
        committed = houses.get_by_test_id(f"house-{first}").get_by_test_id("committed")
        expect(committed).to_be_visible(timeout=30_000)
        eyrie = page.locator("li[data-area='the-eyrie'] .order-placed")
        expect(eyrie).to_contain_text("Raid/Support +1")
        expect(page.get_by_test_id("orders-count")).to_contain_text("2 of at most 2")
        page.get_by_test_id("commit").click()
        expect(take_back).to_be_visible()
        release[last].set()

        expect(page.locator(".w-order.is-hidden")).to_have_count(0, timeout=60_000)
        for area, token in CHANGED.items():
            piece = page.locator(f"[data-testid=pieces-{area}] .w-order[data-order='{token}']")
            expect(piece).to_have_attribute("data-house", VASSAL, timeout=60_000)
        log = core.session(game_id).view_message(PERSON)["log"]
        [revealed] = [entry for entry in log if entry["kind"] == "orders_revealed"]
        arryn = {a: token for a, (house, token) in revealed["orders"].items() if house == VASSAL}
        assert arryn == CHANGED
        expect(page.get_by_test_id(f"take-back-{VASSAL}")).to_have_count(0)
    finally:
        for event in release.values():
            event.set()
