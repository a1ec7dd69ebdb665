"""The victory track in real Chromium against the real core (RULES.md 1.9.1, 9.1, 11.6.4): it
shows each house's score as the engine counts it for victory, titled by castles in the base
game; in an 8-player Mother of Dragons game it is titled "Victory points" and Targaryen's marker
stands at its loyalty points, not at its castle areas, on the board and in the replay alike.
The game is reached by legal random play through the real engine and session: seed 2, every
seat a person, 116 decisions, after which Targaryen has collected a loyalty token (found with
the engine's own random player)."""

from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")
from playwright.sync_api import Page, expect

from westeros.engine import board, pending, victory
from westeros.engine.flow import random_action
from westeros.plugins import build_ruleset
from westeros.session import GameSession

from .live import LiveCore
from .test_board import victory_shown
from .test_board_fixes import new_board, open_board

T = "targaryen"
SEED, DECISIONS = 2, 116
MOD = {"mother_of_dragons": True}


def title(page: Page) -> str:
    return page.get_by_test_id("victory-track").locator(".scale-title").inner_text().strip()


def test_9_1_the_track_shows_castle_areas_in_the_base_game(page: Page, live_core: LiveCore) -> None:
    session = new_board(page, live_core, 3, "stark", 2)
    state = session.state
    assert title(page) == "Victory (castles)"
    assert victory_shown(page) == {h: board.castle_count(state, h) for h in state.houses}


def test_11_6_4_the_track_shows_targaryens_loyalty_points(page: Page, live_core: LiveCore) -> None:
    houses = build_ruleset(MOD).setups[8].houses
    games = live_core.app.state.games
    session: GameSession = games.create(
        players=8, human=None, humans=houses, seed=SEED, options=MOD
    )
    rnd = random.Random(SEED)
    for _ in range(DECISIONS):
        state = session.state
        house = min(pending(state))
        session.submit(house, random_action(state, house, rnd), state.serial)
    state = session.state
    points, castles = victory.score(state, T), board.castle_count(state, T)
    assert state.ext["loyalty_collected"] >= 1 and points != castles, (points, castles)
    open_board(page, live_core, session, "stark")
    assert title(page) == "Victory points"
    assert victory_shown(page)[T] == points
    row = page.get_by_test_id(f"house-{T}")  # issue 37 point 2: points, not "Castles"
    expect(row.locator("[data-stat=points]")).to_have_text(str(points))
    expect(row.locator("[data-stat=castles]")).to_have_count(0)
    page.goto(f"{live_core.url}/games/{session.game_id}/replay/stark")
    page.wait_for_url(re.compile(rf"/games/{session.game_id}/replay/stark"))
    page.wait_for_function("() => document.body.dataset.step === '0'")  # the replay is ready
    _, timeline = live_core.app.state.core.replays.timeline(session.game_id)
    page.get_by_test_id("replay-last").click()
    page.wait_for_function(
        f"() => document.body.dataset.step === '{timeline.total}'", timeout=60_000
    )
    assert title(page) == "Victory points"
    assert victory_shown(page)[T] == points
