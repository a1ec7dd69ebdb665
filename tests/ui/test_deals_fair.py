"""Fair bargaining on the board (issue 36 point 5, acceptance 3), in Chromium against the real
core with the game's own AI and the plugins' personalities. Lannister is the person; its
neighbour Greyjoy (the Turtle, honourable) faces it across the Golden Sound (2.1: their ships
are adjacent at the start of a 4-player game).

The person offers Greyjoy "no attacks between us this round" by clicks and Greyjoy accepts; the
game log shows the offer and the acceptance. When the person then resolves its March order
from the Golden Sound into Greyjoy's Ironman's Bay, the board flags the broken promise before
anything is sent; Cancel sends nothing, and the person removes the order instead. Once the
round is over the engine's log (not the page) shows that Greyjoy kept its word too, and the
game log says so for each side. Played on, every offer an AI makes to the person binds the AI
itself to something (read from the server's deal book and shown in the panel). In zh-CN the
person marches anyway after the warning: the march is sent, and the log says, with no English,
that Lannister broke its word and Greyjoy kept its own."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, WebSocketRoute, expect

from westeros.deals import binds
from westeros.engine import board
from westeros.engine.view import visible

from .driver import (
    Played,
    commit,
    offer_peace,
    place_orders,
    play_one,
    prompt_kind,
    start_with_turtle,
    state_id,
    wait_for_decision,
)
from .live import LiveCore
from .test_board import settled

PERSON = "lannister"
TURTLE_SEAT = "greyjoy"
SHIP = "the-golden-sound"
THEIR_SEA = "ironmans-bay"
SEED = "5"
LAST_ROUND = 7
LATIN = re.compile(r"[A-Za-z]")
TALK_LINES = ["deal_proposed", "deal_answered"]


def start(page: Page, core: LiveCore, lang: str = "en") -> str:
    """A 4-player game (2.1) where Lannister is the person and Greyjoy the Turtle."""
    return start_with_turtle(page, core, PERSON, TURTLE_SEAT, SEED, lang)


def deal_lines(page: Page, kind: str) -> Any:
    """The game log's deal lines of ``kind``."""
    return page.get_by_test_id("log").locator(f"[data-testid=log-deal][data-kind={kind}]")


def flag_the_broken_promise(page: Page, core: LiveCore, game_id: str, *, confirm: bool) -> str:
    """Resolve the March order in the Golden Sound: choose Greyjoy's Ironman's Bay, press
    March, see the warning, cancel (nothing is sent); then remove the order, or with
    ``confirm`` press March again and march anyway. Returns the warning's text."""
    if page.get_by_test_id(f"march-origin-{SHIP}").count():
        page.get_by_test_id(f"march-origin-{SHIP}").click()
    destination = page.get_by_test_id(f"march-dest-{THEIR_SEA}")
    expect(destination).to_have_attribute("data-combat", "house")
    destination.click()
    page.locator("[data-testid=commit][data-checked='1']").wait_for(timeout=10_000)
    before = state_id(page)
    serial = core.session(game_id).state.serial
    page.get_by_test_id("commit").click()
    warning = page.get_by_test_id("march-promise-warning")
    expect(warning).to_be_visible()
    text = warning.inner_text()
    page.get_by_test_id("march-promise-cancel").click()
    expect(warning).to_be_hidden()
    # Nothing was sent: the game did not move and the board still asks for the march.
    assert core.session(game_id).state.serial == serial
    assert state_id(page) == before and prompt_kind(page) == "march"
    if confirm:
        page.get_by_test_id("commit").click()
        expect(warning).to_be_visible()
        commit(page, "march-promise-confirm")
    else:
        commit(page, "march-remove")
    return text


def play_round_one(page: Page, core: LiveCore, game_id: str, *, confirm: bool = False) -> str:
    """Round 1 after the pact: the person's only March order is the Golden Sound's (Defense
    and Consolidate Power elsewhere: no raid, no other march), resolved by
    ``flag_the_broken_promise``; returns the warning's text."""
    played = Played()
    session = core.session(game_id)
    mine = [a for a in session.state.rules.areas if board.controller(session.state, a) == PERSON]
    prefer = {a: ("march" if a == SHIP else "consolidate_power") for a in mine}
    prefer["lannisport"] = "defense"
    place_orders(page, played, prefer)
    assert [a for a, token in played.orders.items() if token.startswith("march")] == [SHIP]
    assert not [t for t in played.orders.values() if t.startswith("raid")]
    warned = ""
    while wait_for_decision(page, until_round=2):
        if prompt_kind(page) == "march":
            warned = flag_the_broken_promise(page, core, game_id, confirm=confirm)
        else:
            play_one(page, played)
    settled(page, core, game_id)
    assert warned, "the person was never asked to resolve its March order"
    return warned


def log_outline(page: Page) -> list[str]:
    """The game log line by line: "round" for a round's first line, a deal line's kind, or ""."""
    return page.evaluate(
        """[...document.querySelectorAll('#log > li')].map((li) =>
          li.classList.contains('log-round') ? 'round' : li.dataset.kind || '')"""
    )


def attacks(core: LiveCore, game_id: str, by: str, areas: set[str]) -> list[str]:
    """The marches (5.3) into and raids (5.2) on ``areas`` by ``by``, from the engine's log."""
    logged = [e for _, e in core.session(game_id).history() if visible(e, PERSON)]
    marches = [e.data for e in logged if e.kind == "march" and e.data["house"] == by]
    raids = [e.data for e in logged if e.kind == "raid" and e.data["house"] == by]
    return [f"march {dst}" for m in marches for dst, _ in m["moves"] if dst in areas] + [
        f"raid {r['target']}" for r in raids if r["target"] in areas
    ]


def test_36_5_peace_is_kept_by_both_a_march_breaking_it_is_flagged_and_ai_offers_give_something(
    page: Page, core_factory: Any
) -> None:
    core = core_factory(ai_factory=None)  # the game's own AI, with the plugins' personalities
    game_id = start(page, core)
    expect(page.get_by_test_id("prompt").get_by_role("heading")).to_have_text("Place your orders")
    offer_peace(page, TURTLE_SEAT)
    panel = page.get_by_test_id("deals")
    expect(panel.get_by_test_id("deals-outgoing")).to_contain_text("accepted")
    expect(deal_lines(page, "deal_proposed")).to_have_text(
        "Lannister offers Greyjoy a deal: Greyjoy and Lannister do not attack each other in"
        " round 1: no march into and no raid on the other's areas."
    )
    expect(deal_lines(page, "deal_answered")).to_have_text(
        "Greyjoy accepts the deal offered by Lannister."
    )

    state = core.session(game_id).state
    ours = {a: board.controller(state, a) for a in state.rules.areas}
    warned = play_round_one(page, core, game_id)
    assert "This march breaks a promise you made this round." in warned
    assert "Ironman's Bay" in warned and "do not attack each other in round 1" in warned
    # Round 1 in the engine's log: Greyjoy kept its word (no march into, no raid on an area
    # the person held) and so did the person.
    lannister = {a for a, house in ours.items() if house == PERSON}
    greyjoy = {a for a, house in ours.items() if house == TURTLE_SEAT}
    assert attacks(core, game_id, TURTLE_SEAT, lannister) == []
    assert attacks(core, game_id, PERSON, greyjoy) == []
    kept = deal_lines(page, "deal_kept")
    expect(kept).to_have_count(2)
    expect(kept.nth(0)).to_contain_text(
        "Greyjoy kept its word in the deal of round 1 with Lannister"
    )
    expect(kept.nth(1)).to_contain_text(
        "Lannister kept its word in the deal of round 1 with Greyjoy"
    )
    expect(deal_lines(page, "deal_broken")).to_have_count(0)
    expect(panel.locator("[data-testid^=deals-deal-]")).to_contain_text("kept")
    # A fresh board (the log rebuilt from the game's history) shows the same lines, in round 1.
    lines = page.get_by_test_id("log").locator("[data-testid=log-deal]")
    shown = lines.all_inner_texts()
    page.reload()
    expect(lines).to_have_text(shown)
    outline = log_outline(page)
    rounds = [i for i, kind in enumerate(outline) if kind == "round"]
    talks = [outline.index("deal_proposed"), outline.index("deal_answered")]
    assert rounds[0] < talks[0] < talks[1] < rounds[1], outline
    assert outline[rounds[1] - 2 : rounds[1]] == ["deal_kept", "deal_kept"], outline

    # Played on: every offer an AI makes to the person binds the AI to something too.
    table = core.app.state.games.deals(game_id)
    played = Played()
    offered: list[Any] = []
    while not offered and wait_for_decision(page, until_round=LAST_ROUND):
        offered = [p for p in table.book.proposals.values() if p.recipient == PERSON]
        if not offered:
            play_one(page, played)
    assert offered, f"no AI offered the person a deal by round {LAST_ROUND}"
    for proposal in offered:
        assert binds(proposal.terms, proposal.proposer), proposal
        shown = panel.get_by_test_id(f"deals-offer-{proposal.id}")
        expect(shown).to_contain_text(f"{proposal.proposer.capitalize()} offers:")
    expect(deal_lines(page, "deal_proposed").last).to_contain_text("offers Lannister a deal")


class HeldView:
    """The seat socket of a reloaded board, holding what the server sends until ``release``."""

    def __init__(self) -> None:
        self.held: list[str | bytes] = []
        self.page: WebSocketRoute | None = None
        self.released = False

    def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        self.page = ws

        def from_server(message: str | bytes) -> None:
            if self.released:
                ws.send(message)
            else:
                self.held.append(message)

        server.on_message(from_server)

    def release(self) -> None:
        assert self.page is not None and self.held, "the server sent the board nothing"
        self.released = True
        for message in self.held:
            self.page.send(message)


def test_36_5_after_a_reload_the_deal_lines_wait_for_the_game_log_and_then_stand_in_round_1(
    page: Page, core_factory: Any
) -> None:
    """The deals panel may load before the board's socket brings the game's log: the talks
    must not show first at the log's top, out of their round, but in round 1 once it is in."""
    core = core_factory(ai_factory=None)
    start(page, core)
    offer_peace(page, TURTLE_SEAT)
    expect(deal_lines(page, "deal_answered")).to_have_count(1)
    socket = HeldView()
    page.route_web_socket(re.compile(r"/ws/games/[^/]+/seats/"), socket.route)
    page.reload()
    panel = page.get_by_test_id("deals")
    expect(panel.get_by_test_id("deals-outgoing")).to_contain_text("accepted")
    for _ in range(200):  # the route's callbacks run while the page waits
        if socket.held:
            break
        page.wait_for_timeout(50)
    assert log_outline(page) == []  # no deal line without the game's log
    socket.release()
    expect(deal_lines(page, "deal_answered")).to_have_count(1)
    outline = log_outline(page)
    assert outline[0] == "round", outline
    assert outline.count("round") == 1 and outline[-2:] == TALK_LINES, outline


def test_36_5_a_person_may_break_their_word_after_the_warning_and_the_log_says_so_in_chinese(
    page: Page, core_factory: Any
) -> None:
    core = core_factory(ai_factory=None)
    game_id = start(page, core, "zh_CN")
    offer_peace(page, TURTLE_SEAT)
    expect(deal_lines(page, "deal_answered")).to_have_count(1)
    state = core.session(game_id).state
    greyjoy = {a for a in state.rules.areas if board.controller(state, a) == TURTLE_SEAT}
    warned = play_round_one(page, core, game_id, confirm=True)
    assert attacks(core, game_id, PERSON, greyjoy) == [f"march {THEIR_SEA}"]  # sent, once
    expect(deal_lines(page, "deal_broken")).to_have_count(1)
    expect(deal_lines(page, "deal_broken")).to_have_text(re.compile("^兰尼斯特违背了第1回合"))
    expect(deal_lines(page, "deal_kept")).to_have_count(1)
    expect(deal_lines(page, "deal_kept")).to_have_text(re.compile("^葛雷乔伊遵守了第1回合"))
    lines = page.get_by_test_id("log").locator("[data-testid=log-deal]").all_inner_texts()
    assert len(lines) == 4
    for text in (*lines, warned):
        assert not LATIN.search(text), text


def test_36_5_a_raid_on_the_partners_order_is_flagged_before_it_is_sent(
    page: Page, core_factory: Any
) -> None:
    """A pact forbids raids on the partner's orders too (5.2): with a Raid order in the Golden
    Sound, choosing Greyjoy's order in Ironman's Bay and pressing Raid shows the warning first;
    Cancel sends nothing, and the person removes the Raid order without a target instead. The
    engine's log shows no raid on Greyjoy and the game log says Lannister kept its word."""
    core = core_factory(ai_factory=None)
    game_id = start(page, core)
    offer_peace(page, TURTLE_SEAT)
    session = core.session(game_id)
    mine = [a for a in session.state.rules.areas if board.controller(session.state, a) == PERSON]
    greyjoy = {
        a for a in session.state.rules.areas if board.controller(session.state, a) == TURTLE_SEAT
    }
    # The starred Raid (Lannister leads the King's Court at the start): it may remove a
    # Defense order (5.2.3), which is what the Turtle keeps in Ironman's Bay.
    prefer = {a: ("raid+0*" if a == SHIP else "consolidate_power") for a in mine}
    prefer["lannisport"] = "defense"
    played = Played()
    place_orders(page, played, prefer)
    assert played.orders[SHIP] == "raid+0*"
    warned = ""
    while wait_for_decision(page, until_round=2):
        if prompt_kind(page) != "raid":
            play_one(page, played)
            continue
        if page.get_by_test_id(f"raid-{SHIP}").count():
            page.get_by_test_id(f"raid-{SHIP}").click()
        orders = session.state.orders
        theirs = sorted(a for a, o in orders.items() if o.house == TURTLE_SEAT)
        target = page.get_by_test_id(f"raid-target-{THEIR_SEA}")
        assert target.count(), f"no Greyjoy order to raid from {SHIP}; Greyjoy's: {theirs}"
        target.click()
        serial = session.state.serial
        page.get_by_test_id("commit").click()
        warning = page.get_by_test_id("raid-promise-warning")
        expect(warning).to_be_visible()
        warned = warning.inner_text()
        page.get_by_test_id("raid-promise-cancel").click()
        expect(warning).to_be_hidden()
        assert session.state.serial == serial and prompt_kind(page) == "raid"
        commit(page, "raid-no-target")
    settled(page, core, game_id)
    assert "This raid breaks a promise you made this round." in warned
    assert "Ironman's Bay" in warned and "do not attack each other in round 1" in warned
    assert attacks(core, game_id, PERSON, greyjoy) == []
    expect(deal_lines(page, "deal_kept").nth(1)).to_contain_text(
        "Lannister kept its word in the deal of round 1 with Greyjoy"
    )
