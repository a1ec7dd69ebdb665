"""A decision with nothing to choose says why (issue 13.3): a muster prompt whose "Recruit:"
list is empty explains that no unit fits the points, the supply or the pool (RULES.md 3.5.1,
1.7). The game is reached by legal random play through the real engine and session: seed 2,
3 players, every seat a person, 105 decisions, after which Baratheon musters in Dragonstone
with nothing to recruit (found with the engine's own random player)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")
from playwright.sync_api import Page, expect

from westeros.engine import pending
from westeros.engine.flow import random_action
from westeros.session import GameSession

from .live import LiveCore
from .test_board_fixes import open_board

SEED, PLAYERS, DECISIONS = 2, 3, 105


def test_13_3_an_empty_muster_list_says_why(page: Page, live_core: LiveCore) -> None:
    games = live_core.app.state.games
    houses = ("baratheon", "lannister", "stark")
    session: GameSession = games.create(players=PLAYERS, human=None, humans=houses, seed=SEED)
    rnd = random.Random(SEED)
    for _ in range(DECISIONS):
        state = session.state
        house = min(pending(state))
        session.submit(house, random_action(state, house, rnd), state.serial)
    asked = pending(session.state)["baratheon"]
    assert (asked.kind, asked.data["area"], asked.data["recruits"]) == ("muster", "dragonstone", [])
    open_board(page, live_core, session, "baratheon")
    prompt = page.get_by_test_id("prompt")
    expect(prompt.get_by_role("heading")).to_contain_text("Dragonstone")
    expect(prompt).to_contain_text("Nothing can be recruited here")
    expect(prompt).to_contain_text("supply limit")
