"""Mother of Dragons on the new-game screen and the board (RULES.md 11.1-11.3), in Chromium
against the real core: choosing the option offers 7 players (the counts follow the setups of
the Ruleset the chosen options make) and House Arryn; unchecking it goes back to 3-6; a
7-player game started by clicks shows The Bite, The Vale of Arryn and the Port of the Eyrie
as named, clickable areas with Arryn's units; the zh-CN screen shows the same in Chinese;
an option that requires another is offered only with it; the server refuses a count the
options cannot set up."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from westeros import hookimpl
from westeros.engine.content import GameOption
from westeros.plugins import load

from .live import LiveCore

MOD = "mother_of_dragons"
SEVEN_P_AREAS = {
    "the-bite": ("The Bite", "咬人湾"),
    "the-vale-of-arryn": ("The Vale of Arryn", "艾林谷"),
    "port-of-the-eyrie": ("Port of The Eyrie", "鹰巢城港口"),
}
SEED = "7007"


def start_page(page: Page, core: LiveCore, lang: str = "en") -> None:
    page.goto(f"{core.url}/?token={core.token}&lang={lang}")
    expect(page.locator("form#new-game")).to_be_visible()


def offered_counts(page: Page) -> list[int]:
    """The player counts a person can pick (visible radio buttons)."""
    radios = page.locator("input[name=players]")
    return [int(r.get_attribute("value") or 0) for r in radios.all() if r.is_visible()]


def house_choice(page: Page, house: str) -> Any:
    return page.locator(f"label.start-house[data-house={house}]")


def choose_seven_players(page: Page) -> None:
    page.locator(f"input[name={MOD}]").check()
    page.locator("input[name=players][value='7']").check()
    expect(page.locator("input[name=players][value='7']")).to_be_checked()


def start_seven_player_game(page: Page) -> str:
    choose_seven_players(page)
    house_choice(page, "arryn").click()
    page.locator("input[name=seed]").fill(SEED)
    page.locator("button.start-submit").click()
    page.wait_for_url(re.compile(r"/games/[^/]+/play/arryn$"))
    match = re.search(r"/games/([^/]+)/play/", page.url)
    assert match is not None
    return match.group(1)


def test_11_2_mother_of_dragons_offers_seven_players_and_unchecking_goes_back(
    page: Page, live_core: LiveCore
) -> None:
    start_page(page, live_core)
    assert offered_counts(page) == [3, 4, 5, 6]
    expect(house_choice(page, "arryn")).to_be_hidden()
    page.locator(f"input[name={MOD}]").check()
    expect(page.locator("input[name=players][value='7']")).to_be_visible()
    assert 7 in offered_counts(page)
    page.locator("input[name=players][value='7']").check()
    expect(house_choice(page, "arryn")).to_be_visible()
    expect(page.get_by_test_id("personality-arryn")).to_be_visible()
    page.locator(f"input[name={MOD}]").uncheck()
    expect(page.locator("input[name=players][value='7']")).to_be_hidden()
    assert offered_counts(page) == [3, 4, 5, 6]
    expect(page.locator("input[name=players][value='6']")).to_be_checked()
    expect(house_choice(page, "arryn")).to_be_hidden()
    expect(page.get_by_test_id("personality-arryn")).to_be_hidden()


def test_11_1_a_seven_player_game_started_by_clicks_draws_the_new_areas_with_arryn(
    page: Page, live_core: LiveCore, artifacts: Path
) -> None:
    start_page(page, live_core)
    game_id = start_seven_player_game(page)
    state = live_core.session(game_id).state
    assert len(state.houses) == 7 and "arryn" in state.houses
    for area, (name, _) in SEVEN_P_AREAS.items():
        shape = page.get_by_test_id(f"area-{area}")
        expect(shape).to_be_visible()
        expect(shape).to_have_attribute("aria-label", re.compile(rf"^{re.escape(name)}\b"))
    expect(page.get_by_test_id("area-the-bite").locator("text")).to_have_text("The Bite")
    # Arryn's starting units (11.2.6) stand on the board.
    for area in ("the-eyrie", "the-vale-of-arryn", "port-of-the-eyrie"):
        arryn = page.locator(f"[data-testid=pieces-{area}] .w-unit[data-house=arryn]")
        expect(arryn.first).to_be_visible()
    page.screenshot(path=str(artifacts / "mod_7p_board.png"))
    # Arryn's areas take orders (Planning, 4.1); an empty one shows what it is when clicked.
    expect(page.get_by_test_id("area-the-vale-of-arryn")).to_have_class(re.compile("is-choosable"))
    page.get_by_test_id("area-the-bite").click()
    expect(page.locator("#area-info .panel-title")).to_have_text("The Bite")


def test_11_the_zh_cn_screen_shows_the_new_option_houses_and_areas_in_chinese(
    page: Page, live_core: LiveCore
) -> None:
    start_page(page, live_core, "zh_CN")
    expect(page.locator(f"label[data-option={MOD}]")).to_have_text("龙之母")
    page.locator(f"input[name={MOD}]").check()
    expect(house_choice(page, "arryn")).to_have_text("艾林")
    start_seven_player_game(page)
    for area, (_, name) in SEVEN_P_AREAS.items():
        label = re.compile(rf"^{re.escape(name)}")
        expect(page.get_by_test_id(f"area-{area}")).to_have_attribute("aria-label", label)
    expect(page.get_by_test_id("area-the-bite").locator("text")).to_have_text("咬人湾")


class NeedsMotherOfDragons:
    """A toy plugin whose option only makes sense with Mother of Dragons."""

    NAME = "toy_needs_mod"

    @hookimpl
    def register_game_options(self) -> list[GameOption]:
        return [GameOption("toy_dragon_rider", "Dragon riders", False, requires=MOD)]


def test_an_option_requiring_another_is_offered_only_while_that_one_is_chosen(
    page: Page, core_factory: Callable[..., LiveCore]
) -> None:
    core = core_factory(plugins=load(extra=[NeedsMotherOfDragons()], autoload=False))
    start_page(page, core)
    rider = page.locator("input[name=toy_dragon_rider]")
    expect(rider).to_be_hidden()
    page.locator(f"input[name={MOD}]").check()
    expect(rider).to_be_visible()
    rider.check()
    page.locator(f"input[name={MOD}]").uncheck()
    expect(rider).to_be_hidden()
    expect(rider).not_to_be_checked()


DUEL_PLUGIN = """
from westeros import hookimpl
from westeros.engine.content import GameOption, Setup

HOUSES = ("stark", "lannister")
SUPPLY = ((2, 2), (3, 2), (3, 2, 2), (3, 2, 2, 2), (3, 3, 2, 2), (4, 3, 2, 2), (4, 3, 2, 2, 2))


@hookimpl
def register_game_options():
    return [GameOption("toy_duel", "Duel", False)]


@hookimpl
def plugin_in_game(options):
    return bool(options.get("toy_duel"))


@hookimpl
def register_setups():
    tracks = {t: HOUSES for t in ("iron_throne", "fiefdoms", "kings_court")}
    return [Setup(2, HOUSES, tracks, {}, frozenset(), frozenset(), SUPPLY, (3, 3))]
"""


def test_2_1_a_plugin_setup_for_another_count_is_offered_with_its_option(
    page: Page,
    core_factory: Callable[..., LiveCore],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The counts come from the Ruleset the options make, whatever plugin brings the setup
    (as an 8-player setup will); here a user-folder plugin with a 2-player duel."""
    folder = tmp_path / "user-plugins"
    folder.mkdir()
    (folder / "toy_duel.py").write_text(DUEL_PLUGIN, "utf-8")
    monkeypatch.setenv("WESTEROS_PLUGIN_DIR", str(folder))
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "0")
    core = core_factory()
    start_page(page, core)
    assert offered_counts(page) == [3, 4, 5, 6]
    page.locator("input[name=toy_duel]").check()
    expect(page.locator("input[name=players][value='2']")).to_be_visible()
    page.locator("input[name=players][value='2']").check()
    expect(house_choice(page, "stark")).to_be_visible()
    expect(house_choice(page, "baratheon")).to_be_hidden()
    page.locator("input[name=toy_duel]").uncheck()
    expect(page.locator("input[name=players][value='2']")).to_be_hidden()


def test_the_server_refuses_a_player_count_the_options_cannot_set_up(
    browser: Any, live_core: LiveCore
) -> None:
    """Its own page: the refused form is answered with HTTP 400 (a console error)."""
    context = browser.new_context()
    page = context.new_page()
    try:
        start_page(page, live_core)
        choose_seven_players(page)
        # a hand-made form: Mother of Dragons unticked behind the screen's back
        page.locator(f"input[name={MOD}]").evaluate("box => { box.checked = false; }")
        page.locator("button.start-submit").click()
        expect(page.get_by_role("alert")).to_contain_text("not 7")
        expect(page.get_by_role("alert")).to_contain_text("3, 4, 5, 6")
        assert live_core.app.state.games.store.list_games() == []
    finally:
        context.close()
