"""Issue 37 point 4: defects a new player's play-through found on the board, in real Chromium
against the real local core (the prompts' hint boxes, the order palette)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from westeros.ai import BaselineBot
from westeros.engine import pending, player_view, tracks

from .driver import Played, commit, play_one, prompt_kind, wait_for_decision
from .live import LiveCore
from .test_board import settled
from .test_board_fixes import new_board, open_board
from .test_saves import settle


def play_until(page: Page, kind: str, until_round: int = 2) -> None:
    """Play the person's seat with the driver until the board asks ``kind``."""
    played = Played()
    while wait_for_decision(page, until_round=until_round):
        if prompt_kind(page) == kind:
            return
        play_one(page, played)
    raise AssertionError(f"no {kind} prompt before round {until_round}")


def hint_text(page: Page) -> str:
    """The hint box's text once the server's reply fills it."""
    page.locator("[data-testid=hint][data-ready='1']").wait_for(timeout=10_000)
    return page.get_by_test_id("hint").inner_text()


def person_at_march(
    core: LiveCore, players: int, house: str, seed: int, origin: str, target: str
) -> Any:
    """A game in which ``house`` (played by the game's own AI through the engine) is asked to
    resolve a March order in ``origin`` while another house holds ``target``."""
    session = core.app.state.games.create(players=players, human=house, seed=seed)
    bot = BaselineBot(seed=seed)
    while session.state.round <= 3:
        settle(session)
        state = session.state
        asked = pending(state).get(house)
        if asked is None:
            continue
        held = {unit.house for unit in state.units.get(target, ())} - {house}
        if asked.kind == "march" and origin in str(asked.data) and held:
            return session
        session.submit(house, bot.decide(player_view(state, house), state.rules, 1.0), state.serial)
    raise AssertionError(f"{house} never marches from {origin}")


def test_issue37_march_and_house_card_hints_never_say_null(page: Page, live_core: LiveCore) -> None:
    """Issue 37 point 4: the march panel's "Before house cards" line and the house-card prompt's
    list of possible outcomes ended with a literal "null" when no Valyrian Steel Blade note
    applies. Seed 1, 3 players, round 2: Lannister may march from Riverrun on Baratheon's
    Harrenhal; Stark holds the Blade."""
    session = person_at_march(live_core, 3, "lannister", 1, "riverrun", "harrenhal")
    state = session.state
    assert tracks.holder(state, tracks.FIEFDOMS) == "stark" and not state.blade_used
    assert {u.house for u in state.units["harrenhal"]} == {"baratheon"}
    open_board(page, live_core, session, "lannister")
    if page.get_by_test_id("march-origin-riverrun").count():
        page.get_by_test_id("march-origin-riverrun").click()
    page.get_by_test_id("march-dest-harrenhal").click()
    march_hint = hint_text(page)
    assert "Before house cards" in march_hint, march_hint
    assert "null" not in march_hint, march_hint
    commit(page)
    play_until(page, "choose_house_card", until_round=3)
    page.locator("[data-testid^=card-]").first.click()
    card_hint = hint_text(page)
    assert "possible cards" in card_hint, card_hint
    assert "null" not in card_hint, card_hint


def test_issue37_used_order_token_cannot_be_clicked_away(page: Page, live_core: LiveCore) -> None:
    """Issue 37 point 4: a token placed in one area is greyed out in the palette of another
    area, yet a click on it silently moved that order. Now it cannot be clicked there, says
    where it is, and the order stays where the player put it."""
    new_board(page, live_core, players=3, house="stark", seed=1)
    page.get_by_test_id("order-area-winterfell").click()
    token = page.locator("[data-testid^=token-march]").first
    token_id = token.get_attribute("data-token")
    token.click()
    placed = page.locator(".order-row[data-area=winterfell] .order-placed")
    expect(placed).to_have_count(1)
    other = page.locator("[data-testid^=order-area-]:not([data-testid=order-area-winterfell])")
    other.first.click()
    used = page.get_by_test_id(f"token-{token_id}")
    expect(used).to_have_class(re.compile(r"\bis-used\b"))
    expect(used).to_be_disabled()
    expect(used).to_have_attribute("title", re.compile("Placed in Winterfell"))
    used.click(force=True)
    expect(placed).to_have_count(1)
    assert page.locator(".order-placed").count() == 1


def test_issue37_top_bar_says_action_phase_while_another_house_marches(
    page: Page, live_core: LiveCore
) -> None:
    """Issue 37 point 4: while another house decided its march, the top bar still said
    "Planning phase". Stark and Lannister are both people (seed 1, 3 players, both played by
    the game's own AI through the engine) until Lannister alone is asked to march; Stark's
    board then names the Action phase."""
    session = live_core.app.state.games.create(
        players=3, human="stark", humans=["lannister"], seed=1
    )
    bots = {house: BaselineBot(seed=7) for house in ("stark", "lannister")}
    while True:
        settle(session)
        state = session.state
        asked = pending(state)
        assert state.round <= 3, "Lannister never marched alone"
        if set(asked) == {"lannister"} and asked["lannister"].kind == "march":
            break
        house = next(h for h in ("stark", "lannister") if h in asked)
        view = player_view(state, house)
        session.submit(house, bots[house].decide(view, state.rules, 1.0), state.serial)
    open_board(page, live_core, session, "stark")
    expect(page.locator("#round-info .phase")).to_have_text("Action phase")
    expect(page.locator("#waiting")).to_contain_text("Lannister")


def round_one_combats(core: LiveCore, game_id: str) -> list[str]:
    """Round 1's combat victories in the person's log, as "<House> wins the combat in <Area>"
    from the engine's events and the content's names."""
    session = core.session(game_id)
    rules = session.state.rules
    log = session.view_message("lannister")["log"]
    return [
        f"{rules.houses[e['winner']].name} wins the combat in {rules.areas[e['area']].name}"
        for e in log
        if e["kind"] == "combat_won"
    ]


def test_issue37_this_rounds_combats_stay_listed(page: Page, live_core: LiveCore) -> None:
    """Issue 37 point 4: a combat result flashed by; only the last combat was shown. The
    combat panel keeps a list of this round's combat (and wildling) results the person can
    open. Seed 23, 6 players, Lannister marching everywhere it can in round 1."""
    session = new_board(page, live_core, players=6, house="lannister", seed=23)
    played = Played()
    while wait_for_decision(page, until_round=2):
        if len(round_one_combats(live_core, session.game_id)) >= 2:
            break
        play_one(page, played, prefer={"the-golden-sound": "march"})
    settled(page, live_core, session.game_id)
    expected = round_one_combats(live_core, session.game_id)
    assert len(expected) >= 2, expected
    results = page.get_by_test_id("round-results")
    expect(results).to_be_visible()
    results.locator("summary").click()
    items = results.locator("li[data-kind=combat]")
    expect(items).to_have_count(len(expected))
    for item, text in zip(items.all(), expected, strict=True):
        expect(item).to_contain_text(text)


SIGILS = """house => {
  const use = document.querySelector(`${house} use`);
  const id = (use.getAttribute("href") || "").slice(1);
  const symbol = document.getElementById(id);
  const circle = document.querySelector(`${house} circle`);
  return [id, symbol ? symbol.querySelectorAll("path").length : 0,
          getComputedStyle(circle).fill];
}"""
"""The mark a house's token uses: its sprite symbol, how many shapes it draws, its fill."""


def test_issue37_arryn_and_targaryen_have_their_own_sigils(
    page: Page, live_core: LiveCore, artifacts: Path
) -> None:
    """Issue 37 point 4: Arryn and Targaryen had no sigils: blank grey circles on the start
    screen and plain dots on the board. Each now has its own mark (our own drawing) on its
    house colour (the colours the Mother of Dragons content registers)."""
    page.goto(f"{live_core.url}/?token={live_core.token}")
    page.locator("input[name=mother_of_dragons]").check()
    colours = {"arryn": "rgb(127, 167, 212)", "targaryen": "rgb(107, 45, 143)"}
    for house, colour in colours.items():
        mark, shapes, fill = page.evaluate(SIGILS, f"label.start-house[data-house={house}]")
        assert (mark, fill) == (f"mark-{house}", colour) and shapes >= 2, (mark, shapes, fill)
    session = live_core.app.state.games.create(
        players=8, human="targaryen", seed=15, options={"mother_of_dragons": True}
    )
    open_board(page, live_core, session, "targaryen")
    page.screenshot(path=str(artifacts / "newplayer-sigils.png"))
    for house, colour in colours.items():
        mark, shapes, fill = page.evaluate(SIGILS, f"#houses .house-chip[data-house={house}]")
        assert (mark, fill) == (f"mark-{house}", colour) and shapes >= 2, (mark, shapes, fill)


SLOTS = """() => [...document.querySelectorAll(".influence-slot")].map(slot => {
  const name = slot.querySelector(".house-chip-name");
  const pos = slot.querySelector(".influence-pos").getBoundingClientRect();
  const mark = slot.querySelector(".house-chip-mark").getBoundingClientRect();
  const apart = pos.right <= mark.left || pos.bottom <= mark.top || pos.left >= mark.right;
  return [slot.dataset.house, name.textContent, name.scrollWidth <= name.clientWidth, apart];
})"""
"""Each influence track slot: its house, the name shown, whether the name fits whole and
whether the position number stays clear of the house's mark."""


@pytest.mark.parametrize("players", [4, 6, 7, 8])
def test_issue37_influence_tracks_show_whole_names_and_positions(
    page: Page, live_core: LiveCore, artifacts: Path, players: int
) -> None:
    """Issue 37 point 4: the influence tracks cut the names ("Bar…") and hid the position
    numbers under the house marks (base game, and Mother of Dragons with 7 and 8 houses)."""
    session = live_core.app.state.games.create(
        players=players, human="stark", seed=15, options={"mother_of_dragons": players > 6}
    )
    open_board(page, live_core, session, "stark")
    page.locator("#tracks").screenshot(path=str(artifacts / f"newplayer-tracks-{players}.png"))
    slots = page.evaluate(SLOTS)
    assert len(slots) == 3 * players
    rules = session.state.rules
    for house, name, whole, apart in slots:
        assert name == rules.houses[house].name and whole, (house, name)
        assert apart, house


COVERED = """() => {
  const svg = document.getElementById("board-svg");
  const labels = [...svg.querySelectorAll("g.area[data-area] > text")]
    .filter(t => t.textContent.trim())
    .map(t => [t.closest("g.area").dataset.area, t.getBoundingClientRect()]);
  const pieces = [...svg.querySelectorAll(".w-cluster, .w-loyalty")]
    .map(p => [p.dataset.testid, p.getBoundingClientRect()]);
  const overlap = (a, b) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 2 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 2;
  return pieces.flatMap(([piece, p]) =>
    labels.filter(([, l]) => overlap(p, l)).map(([area]) => [piece, area]));
}"""
"""Every (pieces, area) pair where a cluster of units and orders or a loyalty token lies over
an area's name on the map (by more than 2 px each way)."""


def test_issue37_units_and_loyalty_tokens_leave_area_names_readable(
    page: Page, live_core: LiveCore, artifacts: Path
) -> None:
    """Issue 37 point 4: loyalty tokens and units covered area names, and a ship covered the
    Port of Pentos label. An 8-player Mother of Dragons board at the start (seed 15)."""
    session = live_core.app.state.games.create(
        players=8, human="targaryen", seed=15, options={"mother_of_dragons": True}
    )
    open_board(page, live_core, session, "targaryen")
    expect(page.locator(".w-loyalty").first).to_be_attached()
    page.screenshot(path=str(artifacts / "newplayer-map-labels.png"))
    assert page.evaluate(COVERED) == []


def test_issue37_map_tooltip_is_chinese_in_chinese(page: Page, live_core: LiveCore) -> None:
    """Issue 37 point 4: hovering the map showed the tooltip "Westeros" on a Chinese board
    (the map file's own title); it reads the map's name in the page's language."""
    session = live_core.app.state.games.create(players=3, human="stark", seed=1)
    page.goto(
        f"{live_core.url}/games/{session.game_id}/play/stark?token={live_core.token}&lang=zh_CN"
    )
    page.wait_for_function("() => document.body.dataset.stateId")
    title = page.locator("#board-svg > title")
    expect(title).to_have_text("维斯特洛地图")
    expect(page.locator("#board-svg")).to_have_attribute("aria-label", "维斯特洛地图")


def test_issue37_deck_iv_card_is_marked_iv(page: Page, live_core: LiveCore) -> None:
    """Issue 37 point 4: the Westeros card drawn from deck IV (RULES.md 11.11, 8 players) was
    marked "4" among "I", "II" and "III". Seed 15, the person (Stark) played by the game's own
    AI through the engine until round 2's Westeros cards are revealed."""
    options = {"mother_of_dragons": True}
    session = live_core.app.state.games.create(players=8, human="stark", seed=15, options=options)
    bot = BaselineBot(seed=15)
    while len(session.state.revealed) < 4:
        settle(session)
        state = session.state
        assert state.round <= 2, "no deck IV card revealed in round 2"
        asked = pending(state).get("stark")
        if asked is not None:
            view = player_view(state, "stark")
            session.submit("stark", bot.decide(view, state.rules, 1.0), state.serial)
    revealed = list(session.state.revealed)
    decks = [session.state.rules.westeros_cards[card].deck for card in revealed]
    assert decks == [1, 2, 3, 4], decks
    open_board(page, live_core, session, "stark")
    marks = page.locator(".westeros-card .westeros-deck")
    expect(marks).to_have_text(["I", "II", "III", "IV"])
