"""The board's tracks end where the rules end them, as the engine gives them in the view
(``limits``, ``victory.goal``): the round track runs 1 to 10 (RULES.md 1.9.1), the wildling
track 0 to 12 in steps of 2 with 12 the attack (1.8.1), the supply track 0 to 6 (1.7) and
the victory track to 7 (9.1)."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from .live import LiveCore
from .test_board import start_game


def _cells(page: Page, track: str) -> list[str]:
    cells = page.locator(f"[data-testid={track}] .scale-cell .scale-value")
    return [c.inner_text().strip() for c in cells.all()]


def test_1_9_each_track_runs_from_its_first_to_its_last(page: Page, live_core: LiveCore) -> None:
    start_game(page, live_core, players=3, house="stark")
    expect(page.get_by_test_id("round-track")).to_be_visible()

    assert _cells(page, "round-track") == [str(n) for n in range(1, 11)]
    assert _cells(page, "wildling-track") == [str(n) for n in range(0, 13, 2)]
    danger = page.locator("[data-testid=wildling-track] .scale-cell.is-danger .scale-value")
    expect(danger).to_have_text("12")
    assert _cells(page, "supply-track") == [str(n) for n in range(7)]
    assert _cells(page, "victory-track") == [str(n) for n in range(8)]
    expect(page.get_by_test_id("round")).to_contain_text("Round 1 of 10")
