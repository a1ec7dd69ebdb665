"""A decision on its way to the server stays sent (RULES.md 4.1; docs/protocol.md `accepted`):
while houses place their orders at once, another house's commitment brings the board a new
view before the person's own orders are in. The board must keep them as sent (its buttons
off) until the server answers; it used to offer the question again, open to a second click.
A decision lost with its socket is asked again once the board has reconnected."""

from __future__ import annotations

import json
import re
import threading
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, WebSocketRoute, expect

from westeros.engine.flow import pending

from .driver import Played, commit, fill_orders, state_id
from .live import LiveCore
from .test_board import HUMAN, events, start_game
from .test_take_backs import HELD, held_bots

OTHER = "baratheon"


class HeldActions:
    """The seat socket between the board and the server, passing everything through but the
    board's first action, which it keeps until ``release``."""

    def __init__(self) -> None:
        self.held: list[str | bytes] = []
        self.page: WebSocketRoute | None = None
        self.server: WebSocketRoute | None = None

    def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        self.page, self.server = ws, server

        def from_page(message: str | bytes) -> None:
            if not self.held and json.loads(message).get("type") == "action":
                self.held.append(message)
            else:
                server.send(message)

        ws.on_message(from_page)

    def release(self) -> None:
        assert self.server is not None and len(self.held) == 1
        self.server.send(self.held[0])

    def drop(self) -> None:
        """Close the socket with the held action in it: the action is lost on the way."""
        assert self.page is not None and self.server is not None and len(self.held) == 1
        self.server.close()
        self.page.close()


def test_4_1_orders_sent_stay_sent_while_another_house_commits(
    page: Page, core_factory: Any
) -> None:
    release = threading.Event()
    socket = HeldActions()
    page.route_web_socket(re.compile(r"/ws/games/[^/]+/seats/"), socket.route)
    core: LiveCore = core_factory(ai_factory=held_bots({HELD: release}))
    try:
        game_id = start_game(page, core, players=3)
        prompt = page.get_by_test_id("prompt")
        expect(prompt.get_by_role("heading")).to_have_text("Place your orders")
        expect(page.get_by_test_id(f"house-{OTHER}").get_by_test_id("committed")).to_be_visible()
        played = Played()
        fill_orders(page, played)
        page.get_by_test_id("commit").click()
        expect(prompt).to_have_class(re.compile("is-sending"))
        assert len(socket.held) == 1

        before = state_id(page)
        release.set()  # Stark commits while Lannister's orders are still on their way
        expect(page.get_by_test_id(f"house-{HELD}").get_by_test_id("committed")).to_be_visible()
        assert state_id(page) != before
        expect(prompt.get_by_role("heading")).to_have_text("Place your orders")
        expect(prompt).to_have_class(re.compile("is-sending"))
        expect(page.get_by_test_id("commit")).to_be_disabled()
        expect(prompt.locator("button:enabled")).to_have_count(0)
        assert not events(core, game_id, "orders_revealed")

        socket.release()
        expect(prompt).not_to_have_class(re.compile("is-sending"))
        expect(prompt.get_by_role("heading")).not_to_have_text("Place your orders")
        [revealed] = events(core, game_id, "orders_revealed")
        mine = {a: token for a, (house, token) in revealed["orders"].items() if house == HUMAN}
        assert mine == played.orders
    finally:
        release.set()


def test_orders_lost_with_their_socket_are_asked_again_after_reconnecting(
    page: Page, core_factory: Any
) -> None:
    """The board reconnects by itself; the orders it sent never arrived, so the question is
    asked again, the orders still placed, and sending them again commits them (4.1)."""
    socket = HeldActions()
    page.route_web_socket(re.compile(r"/ws/games/[^/]+/seats/"), socket.route)
    core: LiveCore = core_factory()
    game_id = start_game(page, core, players=3)
    prompt = page.get_by_test_id("prompt")
    expect(prompt.get_by_role("heading")).to_have_text("Place your orders")
    played = Played()
    fill_orders(page, played)
    page.get_by_test_id("commit").click()
    expect(prompt).to_have_class(re.compile("is-sending"))

    socket.drop()
    expect(page.locator("#connection")).to_have_attribute("data-status", "open")
    expect(prompt).not_to_have_class(re.compile("is-sending"))
    expect(prompt.get_by_role("heading")).to_have_text("Place your orders")
    assert HUMAN in pending(core.session(game_id).state)  # nothing arrived
    for area, token in played.orders.items():
        expect(page.locator(f"li[data-area='{area}'] .order-placed")).to_be_visible()
        expect(page.get_by_test_id(f"token-{token}")).to_have_class(re.compile("is-used"))
    commit(page)
    [revealed] = events(core, game_id, "orders_revealed")
    mine = {a: token for a, (house, token) in revealed["orders"].items() if house == HUMAN}
    assert mine == played.orders
