"""Board fixes (issue 13.5) in real Chromium against the real local core: areas out of play
(RULES.md 1.10.4, 2.2.2) and areas held by neutral forces (1.10.3, 2.2.1) are drawn and named
as such; each house's control has its own pattern besides its colour; a selected order token
stays readable under the pointer; the March prompt's main button is the march (5.3); a Raid
without a target is one click (5.2.2); the combat panel shows the strengths after the house
cards (5.4.7); mustering may take the castle areas in any order (3.5.1).

What the board must show is read from the engine's state and events, never worked out here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from westeros.ai.legal import minimal_action
from westeros.engine import pending, player_view
from westeros.engine.board import controller
from westeros.session import GameSession

from .driver import Played, commit, play_one, prompt_kind, wait_for_decision
from .live import LiveCore
from .test_board import events, settled
from .test_saves import settle

READABLE = 4.5  # WCAG AA contrast for normal text


def open_board(page: Page, core: LiveCore, session: GameSession, house: str) -> None:
    """The board of ``house`` in ``session``, once it shows the game."""
    page.goto(f"{core.url}/games/{session.game_id}/play/{house}?token={core.token}")
    page.wait_for_url(re.compile(rf"/games/{session.game_id}/play/{house}$"))
    page.wait_for_function("() => document.body.dataset.stateId")


def new_board(page: Page, core: LiveCore, players: int, house: str, seed: int) -> GameSession:
    """A new game of ``players`` with the person on ``house`` and its board open."""
    session: GameSession = core.app.state.games.create(players=players, human=house, seed=seed)
    open_board(page, core, session, house)
    return session


def area_classes(page: Page, cls: str) -> list[str]:
    """The areas whose map group carries ``cls``."""
    return sorted(
        page.evaluate(
            "cls => [...document.querySelectorAll(`#board-svg g.area.${cls}`)]"
            ".map(g => g.dataset.area)",
            cls,
        )
    )


def shape_fill(page: Page, area: str) -> str:
    """The computed fill of ``area``'s shape on the map."""
    return page.evaluate(
        "id => getComputedStyle(document.querySelector("
        "`#board-svg g.area[data-area='${id}'] .area-shape`)).fill",
        area,
    )


def test_13_5_out_of_play_areas_marked_with_3_players(
    page: Page, live_core: LiveCore, artifacts: Path
) -> None:
    session = new_board(page, live_core, players=3, house="stark", seed=1)
    blocked = sorted(session.state.blocked)
    assert blocked, "a 3-player game leaves areas out of play (2.2.2)"
    assert area_classes(page, "is-out-of-play") == blocked
    for area in blocked:
        assert shape_fill(page, area) == 'url("#out-of-play")', area
        label = page.get_by_test_id(f"area-{area}").get_attribute("aria-label") or ""
        assert label.endswith("out of play in this game"), label
    # an area in play is not hatched
    assert shape_fill(page, "winterfell") != 'url("#out-of-play")'
    # clicking one (no decision asks for it) tells why nothing may go there
    page.screenshot(path=str(artifacts / "board-3-players.png"))
    page.get_by_test_id("area-pyke").click()
    expect(page.get_by_test_id("area-out-of-play")).to_contain_text("Out of play in this game")
    page.get_by_test_id("area-karhold").click()
    expect(page.locator("#area-info .panel-title")).to_have_text("Karhold")
    expect(page.get_by_test_id("area-out-of-play")).to_have_count(0)


def test_13_5_out_of_play_areas_marked_with_4_players(
    page: Page, live_core: LiveCore, artifacts: Path
) -> None:
    """With 4 (and 5) players the setup blocks no area (2.2.2); the absent houses' lands are
    held by neutral forces (2.2.1), which the map names and the area panel explains."""
    session = new_board(page, live_core, players=4, house="stark", seed=1)
    assert not session.state.blocked
    assert area_classes(page, "is-out-of-play") == []
    neutral = session.state.neutral
    assert area_classes(page, "is-neutral-held") == sorted(neutral)
    for area, value in neutral.items():
        label = page.get_by_test_id(f"area-{area}").get_attribute("aria-label") or ""
        assert label.endswith(f"held by a neutral force ({value})"), label
    page.get_by_test_id("area-sunspear").click()
    expect(page.get_by_test_id("area-neutral-force")).to_contain_text(
        f"Neutral force {neutral['sunspear']}: it holds this area"
    )
    page.screenshot(path=str(artifacts / "board-4-players.png"))


def test_13_5_each_house_control_has_its_own_pattern(page: Page, live_core: LiveCore) -> None:
    session = new_board(page, live_core, players=6, house="stark", seed=1)
    state = session.state
    patterns: dict[str, set[str]] = {}
    for area in state.rules.areas:
        owner = controller(state, area)
        fill = shape_fill(page, area)
        if owner is None:
            assert not fill.startswith('url("#control-'), (area, fill)
            continue
        match = re.fullmatch(r'url\("#(control-[a-z-]+)"\)', fill)
        assert match, (area, fill)
        patterns.setdefault(owner, set()).add(match.group(1))
    assert set(patterns) == set(state.houses)
    ids = [pid for house in state.houses for pid in patterns[house]]
    assert len(ids) == len(set(ids)), "two houses share a control pattern"
    # each pattern carries its house's own mark and its own colour (colour-blind players)
    marks: dict[str, str] = {}
    colours: dict[str, str] = {}
    for house in state.houses:
        pid = sorted(patterns[house])[0]
        marks[house], colours[house] = page.evaluate(
            "id => { const p = document.getElementById(id);"
            " return [p.querySelector('use').getAttribute('href'),"
            " getComputedStyle(p.querySelector('rect')).fill]; }",
            pid,
        )
        assert marks[house] == f"#mark-{house}"
    assert len(set(colours.values())) == len(state.houses), colours


def luminance(rgb: str) -> float:
    """WCAG relative luminance of a CSS ``rgb(r, g, b)`` colour."""
    channels = [int(c) / 255 for c in re.findall(r"\d+", rgb)[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_13_5_hovered_selected_order_token_stays_readable(page: Page, live_core: LiveCore) -> None:
    new_board(page, live_core, players=3, house="stark", seed=1)
    expect(page.get_by_test_id("prompt").get_by_role("heading")).to_have_text("Place your orders")
    page.get_by_test_id("order-area-winterfell").click()
    token = page.locator("[data-testid^=token-march]").first
    token.click()
    page.get_by_test_id("order-area-winterfell").click()  # back to it: its token is selected
    expect(token).to_have_class(re.compile(r"\bis-selected\b"))
    token.hover()
    colour, background = token.evaluate(
        "el => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]"
    )
    assert contrast(colour, background) >= READABLE, (colour, background)
    area = page.get_by_test_id("order-area-winterfell")
    area.hover()
    colour, background = area.evaluate(
        "el => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]"
    )
    assert contrast(colour, background) >= READABLE, (colour, background)


def play_until(page: Page, kind: str, prefer: dict[str, str]) -> Played:
    """Play the person's seat with the driver until the board asks ``kind`` (round 1)."""
    played = Played()
    while wait_for_decision(page, until_round=2):
        if prompt_kind(page) == kind:
            return played
        play_one(page, played, prefer=prefer)
    raise AssertionError(f"no {kind} prompt in round 1")


def test_13_5_march_prompt_main_button_is_the_march(page: Page, live_core: LiveCore) -> None:
    session = new_board(page, live_core, players=3, house="stark", seed=1)
    play_until(page, "march", {"winterfell": "march"})
    if page.get_by_test_id("march-origin-winterfell").count():
        page.get_by_test_id("march-origin-winterfell").click()
    main = page.get_by_test_id("commit")
    expect(main).to_have_text("March")
    expect(main).to_have_class(re.compile(r"\bbutton-primary\b"))
    expect(main).to_be_disabled()  # nothing chosen yet
    remove = page.get_by_test_id("march-remove")
    expect(remove).to_have_text("Remove the order without moving")
    expect(remove).not_to_have_class(re.compile(r"\bbutton-primary\b"))
    page.get_by_test_id("march-dest-castle-black").click()
    expect(main).to_be_enabled()
    expect(main).to_have_text("March")
    commit(page)
    settled(page, live_core, session.game_id)
    assert {u.house for u in session.state.units["castle-black"]} == {"stark"}


def test_13_5_raid_without_a_target_is_one_click(page: Page, live_core: LiveCore) -> None:
    session = new_board(page, live_core, players=3, house="stark", seed=1)
    play_until(page, "raid", {"winterfell": "raid"})
    origin = page.get_by_test_id("raid-winterfell")
    if page.get_by_test_id("raid-no-target").count() == 0:
        origin.click()
    before = page.evaluate("document.body.dataset.stateId")
    page.get_by_test_id("raid-no-target").click()  # the only click
    page.wait_for_function("b => document.body.dataset.stateId !== b", arg=before)
    settled(page, live_core, session.game_id)
    raids = events(live_core, session.game_id, "raid")
    assert raids and raids[-1]["area"] == "winterfell" and raids[-1]["target"] is None
    assert "winterfell" not in session.state.orders


def test_13_5_combat_panel_shows_strength_after_cards(page: Page, live_core: LiveCore) -> None:
    # Seed 23 (test_board.py): the Lannister ship in the Golden Sound meets Greyjoy's in round 1.
    session = new_board(page, live_core, players=6, house="lannister", seed=23)
    play_until(page, "choose_house_card", {"the-golden-sound": "march"})
    panel = page.locator("#combat")
    expect(panel.get_by_test_id("combat-before-attacker")).to_be_visible()
    expect(panel.get_by_test_id("combat-after-attacker")).to_have_count(0)  # no cards yet
    play_one(page, Played())
    # Once the board has caught up (the AIs wait for the person), the panel shows the newest
    # combat of the engine's log, strengths before and after the house cards (5.4.2, 5.4.7).
    wait_for_decision(page, until_round=3)
    state = settled(page, live_core, session.game_id)
    log = session.view_message("lannister")["log"]
    start = max(i for i, e in enumerate(log) if e["kind"] == "combat")
    before = next(e for e in log[start:] if e["kind"] == "initial_strength")
    won = next(e for e in log[start:] if e["kind"] == "combat_won")
    for which, after in zip(("attacker", "defender"), won["strength"], strict=True):
        expect(panel.get_by_test_id(f"combat-after-{which}")).to_have_text(
            f"After house cards: {after}"
        )
        expect(panel.get_by_test_id(f"combat-before-{which}")).to_have_text(
            f"Before house cards: {before[which]}"
        )
    expect(panel).to_contain_text(f"{state.rules.houses[won['winner']].name} wins.")


def test_13_5_mustering_in_any_area_order(page: Page, live_core: LiveCore) -> None:
    """Seed 1, 3 players, Stark playing passively: round 2's Mustering card (3.4.4) lets
    Stark muster in White Harbor and Winterfell; the board offers Winterfell first."""
    house = "stark"
    session: GameSession = live_core.app.state.games.create(players=3, human=house, seed=1)
    rules = session.state.rules
    while True:
        settle(session)
        state = session.state
        asked = pending(state).get(house)
        assert asked is not None and state.round <= 2, "no mustering with two areas"
        if asked.kind == "muster" and asked.data["other_areas"]:
            break
        session.submit(house, minimal_action(player_view(state, house), rules), state.serial)
    assert (asked.data["area"], asked.data["other_areas"]) == ("white-harbor", ["winterfell"])
    open_board(page, live_core, session, house)
    expect(page.get_by_test_id("prompt").get_by_role("heading")).to_contain_text("White Harbor")
    commit_before = page.evaluate("document.body.dataset.stateId")
    page.get_by_test_id("muster-switch-winterfell").click()
    page.wait_for_function("b => document.body.dataset.stateId !== b", arg=commit_before)
    expect(page.get_by_test_id("prompt").get_by_role("heading")).to_contain_text("Winterfell")
    asked = pending(session.state)[house]
    assert (asked.data["area"], asked.data["other_areas"]) == ("winterfell", ["white-harbor"])
    expect(page.get_by_test_id("muster-switch-white-harbor")).to_be_visible()
    # Done in Winterfell: White Harbor, waiting with its point, musters next
    commit(page)
    expect(page.get_by_test_id("prompt").get_by_role("heading")).to_contain_text("White Harbor")
    assert pending(session.state)[house].data["points"] == 1
