"""The new-game screen: 3-6 players, your house or a random one, an AI for every other seat,
plugin options (ports on, Tides of Battle off by default) and an optional seed."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from .live import LiveCore

THREE_PLAYER_HOUSES = {"stark", "lannister", "baratheon"}  # RULES 2.1


def test_defaults_and_houses_of_the_player_count(page: Page, live_core: LiveCore) -> None:
    page.goto(f"{live_core.url}/?token={live_core.token}")
    expect(page.locator("input[name=players][value='6']")).to_be_checked()
    expect(page.locator("input[name=house][value=random]")).to_be_checked()
    expect(page.locator("input[name=plugin][value=westeros_ports]")).to_be_checked()
    expect(page.locator("input[name=tides_of_battle]")).not_to_be_checked()
    expect(page.locator("input[name=seed]")).to_have_value("")

    page.locator("label.start-house[data-house=martell]").click()
    page.locator("input[name=players][value='3']").check()
    for label in page.locator("label.start-house[data-house]").all():
        house = label.get_attribute("data-house")
        if house in THREE_PLAYER_HOUSES:
            expect(label).to_be_visible()
        else:
            expect(label).to_be_hidden()
            expect(label.locator("input")).to_be_disabled()
    # Martell does not play with three: the choice falls back to a random house.
    expect(page.locator("input[name=house][value=random]")).to_be_checked()


def test_random_house_options_and_seed(page: Page, live_core: LiveCore) -> None:
    page.goto(f"{live_core.url}/?token={live_core.token}")
    page.locator("input[name=players][value='3']").check()
    page.locator("input[name=plugin][value=westeros_ports]").uncheck()
    page.locator("input[name=tides_of_battle]").check()
    page.locator("input[name=seed]").fill("42")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/[^/]+/play/[a-z]+$"))
    game_id, house = re.findall(r"/games/([^/]+)/play/([a-z]+)$", page.url)[0]
    assert house in THREE_PLAYER_HOUSES

    session = live_core.session(game_id)
    assert session.state.options["tides_of_battle"] is True
    assert not any(area.startswith("port-") for area in session.state.rules.areas)
    assert [h for h in session.state.houses if not session.is_ai(h)] == [house]
    expect(page.locator("#you")).to_contain_text(session.state.rules.houses[house].name)
    page.get_by_test_id("map").locator("[data-area]").first.wait_for()
    expect(page.locator("#board-svg [data-area^=port-]")).to_have_count(0)
