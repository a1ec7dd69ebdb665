"""Deck IV's loyalty token moves in Chromium against the real core (RULES.md 11.11): in an
8-player Mother of Dragons game (seed 8000) round 2 reveals Scattering Dissent. In reverse turn
order each house moves a loyalty token, so the person, House Targaryen (last on every track,
11.2.3), moves first: each move is offered in words ("Move a loyalty token from Karhold to
Winterfell") and, being its own, is made without a cancel question. The next house's move
(an AI's) Targaryen may cancel by paying a Power token: "Cancel the move …" beside "Let the
token move …"; the log tells each move made. In zh-CN the same prompts show no English."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from .driver import Played, commit, play_one, prompt_kind, wait_for_decision
from .live import LiveCore
from .mod_8p import WAIT_MS, no_english, start

SEED = "8000"  # round 2 reveals Scattering Dissent from deck IV
MOVE = "karhold>winterfell"  # Karhold holds the card's printed token (11.11.2)
ORDERS = {
    "norvos": "defense",
    "the-rhoyne": "defense",
    "myr": "consolidate_power",
    "pentos": "consolidate_power",
    "port-of-pentos": "consolidate_power",
    "bay-of-pentos": "support",
}
"""Round 1 without a march: the quickest way to round 2 (4.1)."""
WORDS = {
    "en": (
        "Move a loyalty token from Karhold to Winterfell",
        "Cancel the move from Oldtown to Highgarden",
        "Let the token move from Oldtown to Highgarden",
    ),
    "zh-CN": (
        "将一枚忠诚标记从卡霍城移到临冬城",
        "取消从旧镇到高庭的移动",
        "允许标记从旧镇移到高庭",
    ),
}
"""The next house (an AI) moves a token where Targaryen is least likely to reach it
(``ai_targaryen.move_token``): Oldtown's, to Highgarden."""


def until_asked(page: Page, testid: str, lang: str) -> None:
    """Answer every decision by clicks until the one with option ``testid`` (bids: nothing)."""
    played = Played()
    while wait_for_decision(page, until_round=3, timeout_ms=WAIT_MS):
        no_english(page, lang)
        if page.get_by_test_id(testid).count():
            return
        if prompt_kind(page) in ("bid", "wildling_bid"):
            commit(page)  # Power tokens kept to cancel moves
        else:
            play_one(page, played, ORDERS)
    raise AssertionError(f"no decision offered {testid} in rounds 1-2")


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_11_11_scattering_dissent_offers_targaryen_token_moves_in_words(
    page: Page, live_core: LiveCore, artifacts: Path, lang: str
) -> None:
    start(page, live_core, SEED, ["mother_of_dragons"], lang)
    move, cancel, allow = WORDS[lang]
    until_asked(page, f"option-{MOVE}", lang)
    expect(page.get_by_test_id(f"option-{MOVE}")).to_have_text(move)
    expect(page.get_by_test_id("option-pass")).to_have_count(0)  # a house must move (11.11.2)
    page.screenshot(path=str(artifacts / f"mod_8p_deck_iv_move_{lang}.png"))
    page.get_by_test_id(f"option-{MOVE}").click()
    commit(page)
    expect(page.get_by_test_id("option-cancel")).to_have_text(cancel, timeout=WAIT_MS)
    expect(page.get_by_test_id("option-allow")).to_have_text(allow)
    expect(page.locator("body[data-prompt=loyalty_cancel]")).to_be_attached()
    no_english(page, lang)
    page.screenshot(path=str(artifacts / f"mod_8p_deck_iv_cancel_{lang}.png"))
    page.get_by_test_id("option-allow").click()
    commit(page)
    if lang == "en":
        log = page.get_by_test_id("log")
        expect(log).to_contain_text(
            "A loyalty token moves from Karhold to Winterfell.", timeout=WAIT_MS
        )
        expect(log).to_contain_text(
            "A loyalty token moves from Oldtown to Highgarden.", timeout=WAIT_MS
        )
