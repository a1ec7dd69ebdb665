"""The online front page's host form and links in Chromium (issue 40;
docs/online-ui-followups.md): the host creates a ranked, anonymous game by turns with a
minimum reliability on the form, the lobby keeps those settings, and the lobby page and the
lobby list show them as badges (in English and Chinese); the front page links to the
leaderboard and to the player's own profile, and the leaderboard's names to profiles."""

from __future__ import annotations

from typing import Any

import pytest

from westeros.online import ratings
from westeros.online.records import PlayerInfo

from ..conftest import ARTIFACTS
from .ratings_helpers import houses, table
from .seat_helpers import (
    LiveOnline,
    launch_context,
    register,
    register_in_page,
)

TIMEOUT_MS = 30_000
BADGES = {
    "badge-ranked": ("Ranked", "排位"),
    "badge-by-turns": ("By turns", "按回合"),
    "badge-anonymous": ("Anonymous", "匿名"),
    "badge-min-reliability": ("Reliability 40 % or more", "可靠度 40% 或以上"),
}

pytestmark = pytest.mark.usefixtures("chromium")


def test_the_host_form_makes_a_ranked_anonymous_table_and_its_badges_show(
    server: LiveOnline, launch_chromium: Any
) -> None:
    from playwright.sync_api import expect

    context = launch_context(launch_chromium)
    page = context.new_page()
    page.goto(server.url + "/")
    expect(page.get_by_test_id("leaderboard-link")).to_have_attribute("href", "/leaderboard")
    expect(page.get_by_test_id("profile-link")).to_be_hidden()  # nobody to show yet
    register_in_page(page, server.url, "Hal")
    me = page.evaluate("() => fetch('/api/me').then((r) => r.json())")
    profile = page.get_by_test_id("profile-link")
    expect(profile).to_be_visible(timeout=TIMEOUT_MS)
    expect(profile).to_have_attribute("href", f"/players/{me['id']}")

    form = page.get_by_test_id("create")
    form.locator("select[name=players]").select_option("3")
    form.locator("input[name=open]").fill("3")
    page.get_by_test_id("create-by-turns").check()
    page.get_by_test_id("create-anonymous").check()
    page.get_by_test_id("create-ranked").check()
    page.get_by_test_id("create-min-reliability").fill("40")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/lobbies/*", timeout=TIMEOUT_MS)
    lobby_id = page.url.rsplit("/", 1)[1]
    settings = server.hub.online.lobby(lobby_id).settings
    assert settings["ranked"] is True and settings["min_reliability"] == 40
    assert settings["anonymous"] is True and settings["pace"]["mode"] == "by_turns"

    badges = page.get_by_test_id("lobby-badges")
    for testid, (words, _) in BADGES.items():
        expect(badges.get_by_test_id(testid)).to_have_text(words, timeout=TIMEOUT_MS)
    page.goto(server.url + "/?lang=zh-CN")
    game = page.get_by_test_id("game").filter(has_text="匿名")
    for testid, (_, words) in BADGES.items():
        expect(game.get_by_test_id(testid)).to_have_text(words, timeout=TIMEOUT_MS)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "online-lobby-badges.png"), full_page=True)

    page.get_by_test_id("profile-link").click()
    page.wait_for_url(f"**/players/{me['id']}*", timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("profile-name")).to_have_text("Hal")
    context.close()


def test_a_lobby_without_those_settings_shows_no_badge_and_the_leaderboard_links_profiles(
    server: LiveOnline, launch_chromium: Any
) -> None:
    from playwright.sync_api import expect

    folk = [register(server, name) for name in ("Ann", "Bo", "Cy")]
    won = table(server.hub, [PlayerInfo(p.id, p.name) for p in folk])
    standings = list(reversed(houses(3)))
    ratings.record_game(server.hub.online, won.id, won.game_id or "", standings)

    context = launch_context(launch_chromium)
    page = context.new_page()
    page.goto(f"{server.url}/lobbies/{won.id}")
    expect(page.get_by_test_id("lobby-name")).to_have_text("Ann's table", timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("badge-ranked")).to_have_text("Ranked", timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("badge-anonymous")).to_have_count(0)
    expect(page.get_by_test_id("badge-min-reliability")).to_have_count(0)

    page.goto(server.url + "/leaderboard")
    rows = page.get_by_test_id("leaderboard").locator("tbody tr")
    expect(rows).to_have_count(3)
    first = rows.first.get_by_role("link")
    href = first.get_attribute("href")
    assert href in {f"/players/{p.id}" for p in folk}
    first.click()
    page.wait_for_url(f"**{href}", timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("rating-games")).to_have_text("1")
    context.close()
