"""Issue 37 point 4: the Iron Bank as a new player met it (RULES.md 11.9), in Chromium against
the real core: an 8-player Mother of Dragons game with the Iron Bank, seed 15, the person
playing Targaryen (no siege engines in its pool, 11.4.3) with Siege Engineers in the 7-cost
slot of round 1."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from .driver import Played, play_one, prompt_kind, wait_for_decision
from .live import LiveCore
from .test_board_fixes import open_board

PERSON = "targaryen"
PORT = "port-of-pentos"
QUIET = {
    PORT: "iron-bank",
    "bay-of-pentos": "support",
    "pentos": "defense",
    "myr": "defense",
    "norvos": "support",
    "the-rhoyne": "support",
}
"""Targaryen's orders: no march (no Power token spent before the loan), the Iron Bank order in
the port, where Baratheon's Raid from Shipbreaker Bay cannot reach it."""
OPTIONS = {"mother_of_dragons": True, "mod_iron_bank": True}


def targaryen_game(page: Page, core: LiveCore) -> None:
    session = core.app.state.games.create(players=8, human=PERSON, seed=15, options=OPTIONS)
    assert session.state.ext["iron_bank_slots"] == ("siege-engineers", "", "")
    open_board(page, core, session, PERSON)


def test_issue37_iron_bank_slots_read_as_words(page: Page, live_core: LiveCore) -> None:
    """Issue 37 point 4: a loan slot read "7 PowerSiege Engineers" and an empty one
    "4 Powerempty slot" (the cost ran into the name, for screen readers and copy alike)."""
    targaryen_game(page, live_core)
    panel = page.get_by_test_id("plugin-panel-iron_bank")
    first = panel.get_by_test_id("loan-slot-0").text_content() or ""
    assert first.startswith("7 Power Siege Engineers"), first
    assert (panel.get_by_test_id("loan-slot-1").text_content() or "") == "4 Power empty slot"


def test_issue37_siege_engineers_warned_for_targaryen_and_no_loan_is_secondary(
    page: Page, live_core: LiveCore, artifacts: Path
) -> None:
    """Issue 37 point 4: Targaryen was sold Siege Engineers for 7 Power without a word that
    it cannot field siege engines, with "Take no loan" as the primary button; then "Place a
    unit from your loan" did not say which unit. Now the offer warns (in the prompt and the
    panel), "Take no loan" is a plain button and the placement names the footman."""
    targaryen_game(page, live_core)
    played = Played()
    while wait_for_decision(page, until_round=2):
        if prompt_kind(page) == "iron_bank_loan":
            break
        play_one(page, played, prefer=QUIET)
    assert prompt_kind(page) == "iron_bank_loan", (played.kinds, played.orders)
    prompt = page.get_by_test_id("prompt")
    warning = prompt.get_by_test_id("loan-short-siege-engineers")
    expect(warning).to_contain_text("2 Siege engines")
    expect(warning).to_contain_text("interest")
    panel = page.get_by_test_id("plugin-panel-iron_bank")
    expect(panel.get_by_test_id("loan-short-siege-engineers")).to_be_visible()
    page.screenshot(path=str(artifacts / "newplayer-iron-bank-warning.png"))
    take_none = prompt.get_by_test_id("option-pass")
    expect(take_none).to_have_text("Take no loan")
    expect(take_none).not_to_have_class(re.compile(r"\bbutton-primary\b"))
    prompt.get_by_test_id("option-siege-engineers").click()
    expect(page.locator("body[data-prompt=loan_unit]")).to_be_attached()
    expect(prompt.get_by_role("heading")).to_have_text("Place the Footman of your loan")
    expect(prompt).to_contain_text("Siege Engineers brings a Footman from your pool")
