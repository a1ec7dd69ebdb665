"""What the 8-player Mother of Dragons browser tests share (RULES.md 11.2.2): House Targaryen
played by the person against seven AIs, started by clicks on the new-game screen."""

from __future__ import annotations

import re
from collections.abc import Iterable

from playwright.sync_api import Locator, Page, expect

from .driver import start_on_screen
from .live import LiveCore

PERSON = "targaryen"
NEST = "norvos"  # Targaryen's lone dragon (11.3)
WAIT_MS = 60_000
"""How long the person waits for the seven AIs, on a loaded machine."""
LATIN = re.compile(r"[A-Za-z]")


def power_shown(page: Page) -> Locator:
    """Targaryen's available Power tokens in its row of the houses panel."""
    return page.locator(f"[data-testid=house-{PERSON}] [data-stat=power]")


def units_shown(page: Page, area: str, unit: str) -> Locator:
    """Targaryen's ``unit`` pieces drawn in ``area``."""
    return page.locator(f"[data-testid=pieces-{area}] .w-unit[data-unit={unit}]")


def start(page: Page, core: LiveCore, seed: str, options: Iterable[str], lang: str) -> None:
    """The game, started on the new-game screen with the weakest (fastest) AI level."""

    def weakest_ai(page: Page) -> None:
        page.locator("input[name=ai_level]").first.check()

    game_id = start_on_screen(page, core, PERSON, 8, seed, options, lang, choose=weakest_ai)
    session = core.session(game_id)
    assert [h for h in session.state.houses if not session.is_ai(h)] == [PERSON]
    assert len(session.state.houses) == 8
    expect(units_shown(page, NEST, "dragon")).to_have_count(1)


def no_english(page: Page, lang: str) -> None:
    """In zh-CN the open decision shows no Latin letters (every word translated)."""
    words = page.get_by_test_id("prompt").inner_text()
    assert lang == "en" or not LATIN.search(words), words
