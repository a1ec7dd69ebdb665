"""Keyboard access to the main actions and a board that scales to the window."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, Route, expect

from .live import LiveCore
from .test_board import settled, start_game


def box(page: Page, selector: str) -> dict[str, float]:
    """The bounding box of the first element matching ``selector``."""
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def test_orders_are_placed_and_committed_with_the_keyboard(page: Page, live_core: LiveCore) -> None:
    """4.1 by keyboard: jump to the decision, choose areas on the map with Enter, place
    tokens with their letters, commit with Ctrl+Enter."""
    game_id = start_game(page, live_core, players=3, house="stark")
    expect(page.get_by_test_id("prompt").get_by_role("heading")).to_have_text("Place your orders")
    state: Any = settled(page, live_core, game_id)
    areas = sorted(a for a, units in state.units.items() if units[0].house == "stark")
    assert len(areas) == 3

    page.keyboard.press("p")
    first = page.get_by_test_id(f"order-area-{areas[0]}")
    expect(first).to_be_focused()
    page.keyboard.press("m")
    page.keyboard.press("c")
    # The last area is chosen on the map: focus the first choosable area, Tab to the area
    # still without an order, Enter picks it.
    page.keyboard.press("a")
    focused = page.evaluate("document.activeElement.dataset.area")
    assert focused in areas
    for _ in range(len(areas)):
        if page.evaluate("document.activeElement.dataset.area") == areas[2]:
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id(f"order-area-{areas[2]}")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("d")
    page.keyboard.press("Control+Enter")

    page.locator(".w-order.is-hidden").first.wait_for(state="detached")
    state = settled(page, live_core, game_id)
    types = [state.rules.order_tokens[state.orders[a].token].type for a in areas]
    assert types == ["march", "consolidate_power", "defense"]


def test_every_area_shows_its_details_when_clicked(page: Page, live_core: LiveCore) -> None:
    """An area no decision asks for still answers a click with what stands there (1.1)."""
    start_game(page, live_core, players=3, house="baratheon")
    page.locator("[data-testid=pieces-winterfell]").wait_for()
    # Click the label (it lets the click through to its area), as a person would.
    page.locator("#area-winterfell text").first.click(force=True)
    info = page.get_by_test_id("area-info")
    expect(info.get_by_role("heading")).to_have_text("Winterfell")
    expect(info).to_contain_text("home of Stark")
    expect(info).to_contain_text("Controlled by")
    expect(info).to_contain_text("Garrison 2")
    page.locator("#area-kings-landing text").first.click(force=True)
    expect(info.get_by_role("heading")).to_have_text("King's Landing")
    expect(info).to_contain_text("Neutral force")


def test_board_scales_to_the_window(page: Page, live_core: LiveCore) -> None:
    """The map fills its pane at any window size; Whole map fits it, + zooms in."""
    start_game(page, live_core, players=3, house="baratheon")
    page.locator("[data-testid=pieces-dragonstone]").wait_for()
    wide = box(page, "#board-svg")
    pane = box(page, "#map-pane")
    assert wide["width"] == pytest.approx(pane["width"] - 16, abs=20)

    page.set_viewport_size({"width": 1000, "height": 760})
    page.wait_for_function(
        "width => document.getElementById('board-svg').getBoundingClientRect().width < width",
        arg=wide["width"],
    )
    narrow = box(page, "#board-svg")
    pane = box(page, "#map-pane")
    assert narrow["width"] < wide["width"]
    assert narrow["width"] == pytest.approx(pane["width"] - 16, abs=20)
    assert box(page, "#prompt")["x"] > pane["x"] + pane["width"] - 1

    page.get_by_role("button", name="Whole map").click()
    whole = box(page, "#board-svg")
    assert whole["height"] <= pane["height"]
    page.get_by_role("button", name="Zoom in").click()
    page.get_by_role("button", name="Zoom in").click()
    assert box(page, "#board-svg")["width"] > whole["width"]
    # Labels stay crisp (vector map): the label of Dragonstone is still rendered text.
    expect(page.locator("#area-dragonstone text").first).to_have_text("Dragonstone")


def test_the_map_tools_are_disabled_until_a_click_on_them_works(
    page: Page, live_core: LiveCore
) -> None:
    """A click on a map tool or on the shortcuts button before the board's script had wired
    them did nothing (as Settings did, tests/ui/test_notify.py): they are served disabled and
    work once enabled. The board's script is held back here until the test lets it."""
    start_game(page, live_core, players=3, house="baratheon")
    held: list[Route] = []
    page.route(re.compile(r"/static/js/board\.js(\?.*)?$"), lambda route: held.append(route))
    page.reload(wait_until="commit")  # routing turns the cache off: the script is asked again
    tools = ["zoom-out", "zoom-width", "zoom-fit", "zoom-in", "help-open"]
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the board's script was asked for and held"
    for tool in tools:
        expect(page.get_by_test_id(tool)).to_be_disabled()
    for route in held:
        route.continue_()
    for tool in tools:
        expect(page.get_by_test_id(tool)).to_be_enabled()
    page.locator("[data-testid=pieces-dragonstone]").wait_for()
    page.get_by_test_id("zoom-fit").click()
    whole = box(page, "#board-svg")
    page.get_by_test_id("zoom-in").click()
    assert box(page, "#board-svg")["width"] > whole["width"]
    page.get_by_test_id("help-open").click()
    expect(page.locator("#help")).to_be_visible()
