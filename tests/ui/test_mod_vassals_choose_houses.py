"""Players choose their houses in a vassal game (issue 37 point 3, acceptance 2; RULES.md 11.2.5,
11.10.3), in Chromium against the real core: the new-game screen with Vassals ticked offers only
3 to 6 players and every house of the board; a person who picks Arryn for 4 players plays it
(the AIs keep Baratheon, Lannister and Stark), and, every vassal claimed before its turn, is told
so in the log; in a game whose players took Martell, Greyjoy and Arryn, the person (Martell,
first in turn order) claims two vassals by clicks and commands them."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from westeros.engine.setup import PLAYER_HOUSES

from .driver import start_on_screen
from .live import LiveCore

OPTIONS = ["mother_of_dragons", "mod_vassals"]
EVERY_HOUSE = (
    "stark", "greyjoy", "lannister", "baratheon", "tyrell", "martell", "arryn", "targaryen",
)  # fmt: skip


def test_11_2_5_the_new_game_screen_offers_every_house_and_only_vassal_counts(
    page: Page, live_core: LiveCore
) -> None:
    """Issue 37 point 3 (RULES.md 11.2.5): with Vassals ticked, 3 to 6 players and every house
    of the board (Targaryen included) may be chosen; 7 and 8 players, which have no vassal,
    are not offered."""
    page.goto(f"{live_core.url}/?token={live_core.token}&lang=en")
    page.locator("input[name=mother_of_dragons]").check()
    expect(page.locator("input[name=players][value='3']")).to_be_disabled()
    page.locator("input[name=mod_vassals]").check()
    for count in ("3", "4", "5", "6"):
        expect(page.locator(f"input[name=players][value='{count}']")).to_be_enabled()
    for count in ("7", "8"):
        expect(page.locator(f"input[name=players][value='{count}']")).to_be_disabled()
    page.locator("input[name=players][value='4']").check()
    for house in EVERY_HOUSE:
        expect(page.locator(f"label.start-house[data-house={house}] input")).to_be_enabled()


def test_11_10_3_a_person_playing_a_chosen_house_is_told_no_vassal_is_left(
    page: Page, live_core: LiveCore
) -> None:
    """Issue 37 point 3 (RULES.md 11.2.5, 11.10.3): the person picks Arryn for 4 players; the
    game seats Arryn with Baratheon, Lannister and Stark; those three, before Arryn in turn
    order, claim the three vassals, and the log tells Arryn that none is left for it."""
    game_id = start_on_screen(page, live_core, "arryn", 4, "4711", OPTIONS)
    state = live_core.session(game_id).state
    assert set(state.setup.seated_houses()) == {"arryn", "baratheon", "lannister", "stark"}
    log = page.get_by_test_id("log")
    expect(log).to_contain_text("No vassal is left for Arryn to claim this round.", timeout=30_000)
    expect(page.locator("body[data-prompt=place_orders]")).to_be_attached(timeout=30_000)
    expect(page.get_by_test_id("prompt")).to_have_attribute("data-for", "arryn")


def test_11_10_3_the_person_claims_vassals_where_the_players_chose_their_houses(
    page: Page, live_core: LiveCore
) -> None:
    """Issue 37 acceptance 2 (RULES.md 11.2.5, 11.10.3): the players took Martell, Greyjoy and
    Arryn; the four usual houses are vassals; Martell, first in turn order with an allowance of
    2 of the 4, claims Stark and Baratheon by clicks and commands them."""
    options = {**dict.fromkeys(OPTIONS, True), PLAYER_HOUSES: "martell,greyjoy,arryn"}
    session = live_core.app.state.games.create(
        players=3, human="martell", seed=4711, options=options
    )
    page.goto(f"{live_core.url}/games/{session.game_id}/play/martell?token={live_core.token}")
    page.wait_for_url(re.compile(rf"/games/{session.game_id}/play/martell$"))
    expect(page.locator("body[data-prompt=claim_vassals]")).to_be_attached()
    for vassal in ("stark", "lannister", "baratheon", "tyrell"):
        expect(page.get_by_test_id(f"claim-{vassal}")).to_be_enabled()
    for player in ("greyjoy", "arryn"):
        expect(page.get_by_test_id(f"claim-{player}")).to_have_count(0)
    page.get_by_test_id("claim-stark").click()
    page.get_by_test_id("claim-baratheon").click()
    expect(page.get_by_test_id("claim-tyrell")).to_be_disabled()  # an allowance of 2
    expect(page.get_by_test_id("commit")).to_have_text("Claim 2 vassals")
    page.get_by_test_id("commit").click()
    panel = page.get_by_test_id("plugin-panel-vassals")
    for vassal in ("stark", "baratheon"):
        expect(panel.locator(f"li[data-house={vassal}]")).to_contain_text("commanded by you")
    expect(page.locator("body[data-prompt=place_orders]")).to_be_attached(timeout=30_000)
    commanders = dict(live_core.session(session.game_id).state.ext["vassal_commanders"])
    assert commanders["stark"] == commanders["baratheon"] == "martell"
    assert {commanders["lannister"], commanders["tyrell"]} <= {"greyjoy", "arryn"}
