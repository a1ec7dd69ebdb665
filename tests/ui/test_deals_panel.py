"""Deals on the board (issue 15 point 4, acceptance 3), in Chromium against the real core with
the game's own AI and the plugins' personalities: the person offers an honourable AI neighbour
(the Turtle) "no attacks between us this round" by clicks, the AI accepts at once, and once
the orders are revealed and the round is played, none of that AI's marches went into, and none
of its raids hit, an area of the person (read from the engine's log, not from the page). In
zh-CN the panel shows no English."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Browser, Page, expect

from westeros.deals.table import MAX_OFFERS_PER_ROUND
from westeros.engine import board
from westeros.engine.view import visible

from .conftest import VIEWPORT, script_errors
from .driver import (
    Played,
    offer_peace,
    place_orders,
    play_one,
    start_with_turtle,
    wait_for_decision,
)
from .live import LiveCore
from .test_board import settled

PERSON = "stark"
TURTLE_SEAT = "greyjoy"
SEED = "23"
LATIN = re.compile(r"[A-Za-z]")


def start(page: Page, core: LiveCore, lang: str = "en") -> str:
    """A 4-player game (2.1) where Stark is the person and Greyjoy the Turtle."""
    return start_with_turtle(page, core, PERSON, TURTLE_SEAT, SEED, lang)


def test_15_4_an_honourable_ai_accepts_peace_and_never_attacks_the_person_that_round(
    page: Page, core_factory: Any
) -> None:
    core = core_factory(ai_factory=None)  # the game's own AI, with the plugins' personalities
    game_id = start(page, core)
    expect(page.get_by_test_id("prompt").get_by_role("heading")).to_have_text("Place your orders")
    offer_peace(page, TURTLE_SEAT)
    panel = page.get_by_test_id("deals")
    expect(panel.get_by_test_id("deals-outgoing")).to_contain_text("accepted")
    made = panel.locator("[data-testid^=deals-deal-]")
    expect(made).to_contain_text("Greyjoy")
    expect(made).to_contain_text("do not attack each other in round 1")
    expect(made).to_contain_text("in force")

    session = core.session(game_id)
    played = Played()
    # 4.1: the person keeps the peace too: no March order, so it attacks nobody.
    mine = [a for a in session.state.rules.areas if board.controller(session.state, a) == PERSON]
    place_orders(page, played, dict.fromkeys(mine, "defense"))
    assert not [t for t in played.orders.values() if t.startswith("march")]
    held = set(mine)  # the person never marches, so these stay its areas unless attacked
    ordered = set(played.orders)
    while wait_for_decision(page, until_round=2):
        play_one(page, played)
    settled(page, core, game_id)

    logged = [e for _, e in session.history() if visible(e, PERSON)]
    assert [e for e in logged if e.kind == "orders_revealed"]  # 4.2
    marches = [e.data for e in logged if e.kind == "march" and e.data["house"] == TURTLE_SEAT]
    raids = [e.data for e in logged if e.kind == "raid" and e.data["house"] == TURTLE_SEAT]
    assert not [dst for m in marches for dst, _ in m["moves"] if dst in held]
    assert not [r["target"] for r in raids if r["target"] in ordered]
    # The round is over and neither house attacked the other: the panel shows the deal kept.
    expect(made).to_contain_text("kept")


def test_15_4_the_deals_panel_speaks_chinese(page: Page, core_factory: Any) -> None:
    core = core_factory(ai_factory=None)
    start(page, core, "zh_CN")
    offer_peace(page, TURTLE_SEAT)
    panel = page.get_by_test_id("deals")
    expect(panel.locator("[data-testid^=deals-deal-]")).to_contain_text("1")
    text = panel.inner_text()
    options = " ".join(panel.locator("option").all_inner_texts())
    assert not LATIN.search(text), text
    assert not LATIN.search(options), options


REFUSED_OFFER = {
    "en": f"You have made as many offers as one round allows ({MAX_OFFERS_PER_ROUND}):"
    " offer again next round.",
    "zh_CN": "你本回合的提议已达上限：请在下一回合再提。",
}


@pytest.mark.parametrize("lang", sorted(REFUSED_OFFER))
def test_2_2_the_panel_says_why_an_offer_past_the_rounds_limit_is_refused(
    browser: Browser, core_factory: Any, request: pytest.FixtureRequest, lang: str
) -> None:
    """After MAX_OFFERS_PER_ROUND offers in round 1 (sent from the page's own session), the
    panel's next offer is refused and the panel says so, not only that it could not be sent:
    in English the server's words, in Chinese the board's own for the refusal's code. Its own
    page: the refusal is HTTP 400, which Chromium reports as a console error, the only one
    allowed here."""
    core = core_factory(ai_factory=None)
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    errors = script_errors(page, request)
    try:
        game_id = start(page, core, lang)
        route = f"{core.url}/games/{game_id}/deals/{PERSON}/proposals"
        pact = {"to": TURTLE_SEAT, "term": {"kind": "non_aggression"}}
        for _ in range(MAX_OFFERS_PER_ROUND):
            assert page.request.post(route, data=pact).status == 200
        panel = page.get_by_test_id("deals")
        panel.get_by_test_id("deals-house").select_option(value=TURTLE_SEAT)
        panel.get_by_test_id("deals-term").select_option(value="non_aggression")
        panel.get_by_test_id("deals-send").click()
        expect(panel.get_by_test_id("deals-error")).to_have_text(REFUSED_OFFER[lang])
    finally:
        context.close()
    assert errors and all("status of 400" in e for e in errors), errors
