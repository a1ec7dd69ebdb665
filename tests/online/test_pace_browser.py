"""The pages of a game by turns in Chromium (issue 40, docs/online-pace.md): the host creates
one on the front page's form (pace, deadline in hours, vacation days), the lobby keeps those
settings; on the board the roster counts the host's deadline down and the host starts and ends
a vacation; and a seat offered after missed deadlines shows on its lobby page with a link that
a new person follows to take it."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import wait_for
from .seat_helpers import (
    LiveOnline,
    launch_context,
    page_post,
    register,
    register_in_page,
)

TIMEOUT_MS = 30_000
OFFER_DEADLINE_S = 4
"""The deadline of the offered-seat test: short enough to miss one soon, long enough that the
new person is seen in the seat before their own first deadline passes (a busy machine)."""

pytestmark = pytest.mark.usefixtures("chromium")


def test_the_host_creates_a_game_by_turns_and_sees_the_deadline_and_a_vacation(
    server: LiveOnline, launch_chromium: Any
) -> None:
    from playwright.sync_api import expect

    context = launch_context(launch_chromium)
    page = context.new_page()
    register_in_page(page, server.url, "Hal")
    form = page.get_by_test_id("create")
    form.locator("select[name=players]").select_option("3")
    form.locator("input[name=open]").fill("1")
    expect(page.get_by_test_id("create-by-turns-settings")).to_be_hidden()
    page.get_by_test_id("create-by-turns").check()
    expect(page.get_by_test_id("create-by-turns-settings")).to_be_visible()
    expect(form.locator("input[name=clock]")).to_be_hidden()
    form.locator("input[name=deadline_hours]").fill("2")
    form.locator("input[name=vacation_days]").fill("3")
    form.locator("input[name=time_zone]").fill("Europe/Paris")
    form.locator("select[name=after_missed]").select_option("keep_ai")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/lobbies/*", timeout=TIMEOUT_MS)
    lobby_id = page.url.rsplit("/", 1)[1]

    pace = server.hub.online.lobby(lobby_id).settings["pace"]
    assert pace == {
        "mode": "by_turns",
        "deadline_seconds": 7200,
        "skip_weekends": False,  # the browser's clock is today's: no weekend in its way
        "time_zone": "Europe/Paris",
        "vacation_days": 3,
        "max_missed": 3,
        "after_missed": "keep_ai",
    }
    page.get_by_test_id("start").click()
    page.get_by_test_id("play").click()
    house = page.url.rsplit("/", 1)[1]
    mine = page.get_by_test_id(f"roster-{house}")
    expect(mine).to_contain_text("due in 1 h", timeout=TIMEOUT_MS)  # counted down from 2 h
    assert mine.get_attribute("data-deadline-at")

    vacation = page.get_by_test_id("vacation")
    expect(vacation).to_have_text("Start a vacation")
    vacation.click()
    expect(mine).to_contain_text("on vacation", timeout=TIMEOUT_MS)
    expect(mine).not_to_contain_text("due in")
    expect(vacation).to_have_text("End my vacation")
    vacation.click()
    expect(mine).to_contain_text("due in 1 h", timeout=TIMEOUT_MS)
    expect(vacation).to_have_text("Start a vacation")


def test_a_seat_offered_after_missed_deadlines_is_taken_through_its_lobby_page(
    server: LiveOnline, launch_chromium: Any
) -> None:
    from playwright.sync_api import expect

    hal, dan = register(server, "Hal"), register(server, "Dan")
    created = hal.post(
        "/api/lobbies",
        {
            "players": 3,
            "house": "stark",
            "open_houses": ["stark", "lannister"],
            "ai_level": "baseline",
            "pace": "by_turns",
            "deadline_seconds": OFFER_DEADLINE_S,
            "max_missed": 1,
            "vacation_days": 1,
        },
    )
    lobby_id = created["lobby"]["id"]
    dan.post("/api/join", {"invite": created["invites"]["lannister"].split("#invite=", 1)[1]})
    dan.post(f"/api/lobbies/{lobby_id}/ready", {"ready": True})
    hal.post(f"/api/lobbies/{lobby_id}/start")
    # Hal's vacation holds the game at its first decision: else, once both people's seats
    # were the AI's, the AIs could play the game to its end before Eve takes the seat.
    hal.post(f"/api/lobbies/{lobby_id}/vacation", {"on": True})
    wait_for(lambda: server.hub.online.lobby(lobby_id).seat("lannister").player_id is None)

    context = launch_context(launch_chromium)
    page = context.new_page()
    register_in_page(page, server.url, "Eve")
    page.goto(f"{server.url}/lobbies/{lobby_id}")
    page.get_by_test_id("offer-lannister").click(timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("seat-lannister")).to_have_text("Eve", timeout=TIMEOUT_MS)
    eve = page_post(context, server.url, "/api/players", {})
    assert server.hub.online.lobby(lobby_id).seat("lannister").player_id == eve["id"]
