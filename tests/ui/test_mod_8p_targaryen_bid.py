"""Targaryen distributes its Clash of Kings bid in Chromium against the real core (RULES.md
11.6.6): in an 8-player Mother of Dragons game (seed 8002) round 2 reveals Clash of Kings; the
person, House Targaryen, bids 1 Power on the Iron Throne track. Once the bids are revealed the
board lists every other house's bid beside the choice of whom to give the Power to, says how
much is left to give, and in zh-CN shows no English."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from .driver import Played, commit, play_one, prompt_kind, wait_for_decision
from .live import LiveCore
from .mod_8p import PERSON, WAIT_MS, no_english, start

SEED = "8002"  # deck II's top card: Clash of Kings, revealed in round 2
MORE = {"en": "more", "zh-CN": "增加"}
"""The name of the bid picker's + button."""
WORDS = {
    "en": (re.compile(r"bids \d+ Power"), "1 Power left to give"),
    "zh-CN": (re.compile(r"出价\d+个权力标记"), "还可分配1个权力标记"),
}
OTHERS = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell", "arryn")


def until_distributing(page: Page, lang: str) -> None:
    """Answer by clicks, bidding 1 Power on the first track, until the bid distribution."""
    played = Played()
    while wait_for_decision(page, until_round=3, timeout_ms=WAIT_MS):
        if prompt_kind(page) == "distribute_bid":
            return
        if prompt_kind(page) == "bid" and not played.bids:
            page.get_by_role("button", name=MORE[lang]).click()
            played.bids.append(1)
            commit(page)
        elif prompt_kind(page) in ("bid", "wildling_bid"):
            commit(page)
        else:
            play_one(page, played)
    raise AssertionError("Targaryen was not asked to distribute its bid in rounds 1-2")


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_11_6_6_the_board_shows_the_revealed_bids_to_targaryen(
    page: Page, live_core: LiveCore, lang: str
) -> None:
    start(page, live_core, SEED, ["mother_of_dragons"], lang)
    until_distributing(page, lang)
    words, left = WORDS[lang]
    bids = page.get_by_test_id("revealed-bids")
    expect(bids.locator("li")).to_have_count(len(OTHERS))
    for house in OTHERS:
        expect(page.get_by_test_id(f"revealed-bid-{house}")).to_have_text(words)
    expect(page.get_by_test_id(f"revealed-bid-{PERSON}")).to_have_count(0)
    expect(page.get_by_test_id("prompt")).to_contain_text(left)
    expect(page.get_by_test_id(f"option-{PERSON}")).to_have_count(0)  # never its own bid
    no_english(page, lang)
