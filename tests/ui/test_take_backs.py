"""Take-backs on the board (RULES.md 4.1; issue 13.2): after committing its orders a person may
change them while an AI is still deciding; the new orders are the ones revealed, and once
everything is revealed no take-back is offered. Every house's row shows who has committed."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from westeros.engine.flow import pending

from .driver import Played, place_orders
from .live import LiveCore, seeded_bots
from .test_board import HUMAN, events, settled, start_game

HELD = "stark"
RELEASE_WAIT_S = 120.0  # only a guard so a broken test cannot hang forever


class HeldBot:
    """The game's own AI, which places Stark's orders only once the test releases it (so the
    AI is certainly still deciding while the person changes its orders)."""

    def __init__(self, bot: Any, release: threading.Event) -> None:
        self.bot = bot
        self.release = release

    def decide(self, view: Mapping[str, Any], rules: Any, budget: float) -> Any:
        prompt = view.get("prompt") or {}
        if prompt.get("kind") == "place_orders":
            self.release.wait(RELEASE_WAIT_S)
        return self.bot.decide(view, rules, budget)


def held_bots(releases: Mapping[str, threading.Event]) -> Callable[[str, Any], Any]:
    """An ``ai_factory``: the seeded AI of every seat, held (``HeldBot``) for each house of
    ``releases`` until its event is set."""

    def bots(house: str, seat: Any) -> Any:
        bot = seeded_bots(house, seat)
        return HeldBot(bot, releases[house]) if house in releases else bot

    return bots


def test_4_1_change_orders_after_committing_while_an_ai_decides(
    page: Page, core_factory: Any
) -> None:
    release = threading.Event()
    core: LiveCore = core_factory(ai_factory=held_bots({HELD: release}))
    try:
        game_id = start_game(page, core, players=3)
        expect(page.get_by_test_id("prompt").get_by_role("heading")).to_have_text(
            "Place your orders"
        )
        first = Played()
        place_orders(page, first)
        take_back = page.get_by_test_id("take-back")
        expect(take_back).to_have_text("Change my orders")
        # Who has committed is shown for every house, never what: Stark is still deciding.
        expect(page.get_by_test_id(f"house-{HUMAN}").get_by_test_id("committed")).to_be_visible()
        expect(page.get_by_test_id(f"house-{HELD}").get_by_test_id("committed")).to_have_count(0)
        assert HELD in pending(core.session(game_id).state)

        take_back.click()
        # The change starts from the orders committed, not from an empty placement.
        for area, token in first.orders.items():
            expect(page.locator(f"li[data-area='{area}'] .order-placed")).to_be_visible()
            expect(page.get_by_test_id(f"token-{token}")).to_have_class(re.compile("is-used"))
        changed = Played()
        areas = list(first.orders)
        prefer = {a: ("defense" if first.orders[a].startswith("march") else "march") for a in areas}
        place_orders(page, changed, prefer)
        assert changed.orders != first.orders
        release.set()

        # The held AI now places Stark's orders and all orders are revealed (4.2).
        deadline = time.monotonic() + RELEASE_WAIT_S
        while not events(core, game_id, "orders_revealed"):
            assert time.monotonic() < deadline, "the orders were never revealed"
            time.sleep(0.05)
        settled(page, core, game_id)
        [revealed] = events(core, game_id, "orders_revealed")
        mine = {a: token for a, (house, token) in revealed["orders"].items() if house == HUMAN}
        assert mine == changed.orders
        expect(page.locator(".w-order.is-hidden")).to_have_count(0)
        # After the reveal there is nothing to take back.
        expect(page.get_by_test_id("take-back")).to_have_count(0)
    finally:
        release.set()
