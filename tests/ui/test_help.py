"""The in-app "How to play" (issue 13 point 8) in real Chromium against the real core: it opens
from the start screen and from the board's top bar; it has a section for every phase the
engine queues in a round (RULES.md 3.1), every order type of the content's order tokens (1.4)
and every track the board shows (1.6-1.9); "Show on board" highlights the element explained;
the card reference lists every house, Westeros and wildling card of the loaded content (1.11);
in zh-CN no English is left. The ``page`` fixture fails on any console error (CSP included)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from westeros.engine import Ruleset, new_game
from westeros.engine.round import Round
from westeros.engine.state import TRACKS
from westeros.server.help_topics import PHASE_STEPS

from .live import LiveCore
from .test_board import start_game
from .test_zh_walk import assert_chinese, start_zh_game

BOARD_TRACKS = "#tracks [data-track], #tracks .scale"
"""Every track the board's tracks panel shows (influence, supply, victory, wildlings, round)."""
TOPIC_TITLE = "el => el.querySelector('.help-topic-title').firstChild.textContent.trim()"


def installed(core: LiveCore) -> Ruleset:
    """The content the core loaded (every plugin's cards included)."""
    rules: Ruleset = core.app.state.core.loaded.ruleset
    return rules


def queued_phases(rules: Ruleset) -> list[type]:
    """The steps the engine's Round queues for round 2 (3.1), in play order."""
    state = new_game(rules, 3, seed=1).copy()
    state.round = 2
    state.stack = ()
    Round().run(state)
    return [type(step) for step in reversed(state.stack)]


def open_help_page(page: Page, core: LiveCore, lang: str = "en") -> None:
    page.goto(f"{core.url}/?token={core.token}&lang={lang}")
    page.get_by_test_id("howto-link").click()
    page.wait_for_url(re.compile(r"/help$"))
    expect(page.get_by_test_id("help-body")).to_be_visible()


def test_help_opens_from_the_start_screen_and_leads_back(page: Page, live_core: LiveCore) -> None:
    open_help_page(page, live_core)
    expect(page.get_by_role("heading", name="How to play", level=1)).to_be_visible()
    page.get_by_role("link", name="Card reference").click()
    expect(page.get_by_test_id("card-reference")).to_be_in_viewport()
    page.get_by_test_id("help-back").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()


def test_every_phase_order_type_and_track_has_a_section(page: Page, live_core: LiveCore) -> None:
    """Phases as the engine queues them (3.1), order types of the content's tokens (1.4) and
    the engine's influence tracks (1.6), each a section with its rule and some explanation."""
    rules = installed(live_core)
    queued = queued_phases(rules)
    assert set(queued) == set(PHASE_STEPS.values()), queued
    order_types = {token.type for token in rules.order_tokens.values()}
    assert {"march", "defense", "support", "raid", "consolidate_power"} <= order_types
    open_help_page(page, live_core)
    wanted = (
        [f"help-phases-{p}" for p in PHASE_STEPS]
        + [f"help-orders-{o}" for o in order_types]
        + ["help-orders-special"]
        + [f"help-tracks-{t}" for t in TRACKS]
        + ["help-tracks-supply", "help-tracks-victory", "help-tracks-wildlings"]
    )
    for testid in wanted:
        topic = page.get_by_test_id(testid)
        expect(topic).to_be_visible()
        expect(topic.locator(".help-rule")).to_contain_text(re.compile(r"§\d"))
        assert len(topic.locator("p").first.inner_text()) > 40, testid
    titles = {o: page.get_by_test_id(f"help-orders-{o}").evaluate(TOPIC_TITLE) for o in order_types}
    assert titles["march"] == "March" and titles["consolidate_power"] == "Consolidate Power"
    steps = page.get_by_test_id("help-phases-action").locator(".help-steps li")
    assert [s.inner_text().split(" ")[0] for s in steps.all()] == ["Raid", "March", "Consolidate"]


def test_the_card_reference_lists_every_card_of_the_content(
    page: Page, live_core: LiveCore
) -> None:
    """Every registered house, Westeros and wildling card (1.11) and every plugin's other card
    (Tides of Battle, 10.1; the Iron Bank's loans, 11.9.6), with its name and text."""
    rules = installed(live_core)
    others = live_core.app.state.core.loaded.reference_cards_for(rules)
    assert {c.deck for c in others} == {"Tides of Battle", "Iron Bank"}
    open_help_page(page, live_core)
    reference = page.get_by_test_id("card-reference")
    for kind, cards in (
        ("house", rules.house_cards),
        ("westeros", rules.westeros_cards),
        ("wildling", rules.wildling_cards),
        ("other", {c.id: c for c in others}),
    ):
        shown = reference.locator(f".help-card[data-kind={kind}]")
        assert shown.count() == len(cards), kind
        for card in cards.values():
            item = reference.locator(f".help-card[data-kind={kind}][data-card='{card.id}']")
            expect(item.locator(".help-card-name")).to_have_text(card.name)
            if card.text:
                expect(item.locator(".help-card-text")).to_have_text(card.text)
    for house in rules.houses.values():
        deck = reference.locator(f".help-deck[data-house={house.id}]")
        expect(deck.locator(".help-deck-title")).to_have_text(house.name)
    greatjon = reference.locator(".help-card[data-card=greatjon-umber]")  # RULES.md 8.2
    expect(greatjon.locator(".help-card-facts")).to_have_text("Strength 2 · 1 sword")


def test_the_board_opens_the_help_and_shows_what_it_explains(
    page: Page, live_core: LiveCore
) -> None:
    """From the board's top bar; every track on the board is explained by a section whose
    "Show on board" highlights it; an order type not on the board says so."""
    start_game(page, live_core, players=3, house="stark")
    page.get_by_test_id("map").locator("[data-area]").first.wait_for()
    page.locator("[data-testid=track-iron_throne] .influence-slot").first.wait_for()
    opener = page.locator(".topbar-tools").get_by_test_id("howto-open")
    expect(opener).to_be_visible()
    opener.click()
    dialog = page.get_by_test_id("howto")
    expect(dialog.get_by_test_id("help-body")).to_be_visible()
    state = live_core.session(page.url.split("/")[-3]).state
    expect(dialog.locator(".help-card[data-kind=house]")).to_have_count(
        len(state.rules.house_cards)
    )
    expect(dialog.locator(".help-card[data-kind=other]")).to_have_count(0)  # Tides of Battle off
    unexplained = page.evaluate(
        """(tracks) => {
          const buttons = document.querySelectorAll('#howto [data-show]');
          const shows = [...buttons].map(b => b.dataset.show);
          return [...document.querySelectorAll(tracks)]
            .filter(el => !shows.some(s => el.matches(s)))
            .map(el => el.outerHTML.slice(0, 80));
        }""",
        BOARD_TRACKS,
    )
    assert not unexplained, unexplained
    for track in TRACKS:
        help_title = dialog.get_by_test_id(f"help-tracks-{track}").evaluate(TOPIC_TITLE)
        board_title = page.locator(f"[data-track={track}] .influence-title").evaluate(
            "el => el.firstChild.textContent.trim()"
        )
        assert help_title == board_title, track

    dialog.get_by_test_id("show-kings_court").click()
    expect(dialog).to_be_hidden()
    track = page.locator("[data-track=kings_court]")
    expect(track).to_have_class(re.compile(r"\bhelp-spot\b"))
    expect(track).to_be_in_viewport()
    note = page.get_by_test_id("howto-spot")
    expect(note).to_contain_text("King's Court")
    expect(page.locator(".help-spot")).to_have_count(1)

    note.get_by_role("button", name="Back to How to play").click()
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("help-tracks-kings_court")).to_be_in_viewport()
    expect(page.locator(".help-spot")).to_have_count(0)

    marches = [t for t in installed(live_core).order_tokens.values() if t.type == "march"]
    dialog.get_by_test_id("show-march").click()  # Planning: the tokens to place
    expect(page.locator("#prompt .token-button.help-spot")).to_have_count(len(marches))
    expect(note).not_to_contain_text("There is none")
    note.get_by_role("button", name="Close").click()
    expect(page.locator(".help-spot")).to_have_count(0)
    expect(note).to_be_hidden()

    opener.click()
    dialog.get_by_test_id("show-combat").click()  # no combat now
    expect(note).to_contain_text("There is none on the board right now.")
    expect(page.locator(".help-spot")).to_have_count(0)


def test_the_help_in_chinese_shows_no_english(page: Page, live_core: LiveCore) -> None:
    """The page from the start screen and the board's overlay, card reference included (a
    game with Tides of Battle: its cards are listed too)."""
    open_help_page(page, live_core, lang="zh_CN")
    expect(page.get_by_role("heading", name="玩法说明", level=1)).to_be_visible()
    assert_chinese(page, "the help page")
    game = start_zh_game(page, live_core, players=3, house="stark", tides=True)
    page.get_by_test_id("howto-open").click()
    dialog = page.get_by_test_id("howto")
    expect(dialog.get_by_test_id("card-reference")).to_be_visible()
    state = live_core.session(game).state
    tides = live_core.app.state.core.loaded.reference_cards_for(state.rules, state.options)
    expect(dialog.locator(".help-card[data-kind=other]")).to_have_count(len(tides))
    assert tides
    assert_chinese(page, "the board's help")
    titles = dialog.get_by_test_id("help-tracks-iron_throne").evaluate(TOPIC_TITLE)
    assert titles == "铁王座"
    dialog.get_by_test_id("show-iron_throne").click()
    expect(page.locator("[data-track=iron_throne]")).to_have_class(re.compile(r"\bhelp-spot\b"))
    assert_chinese(page, "the board showing a track")


def test_the_help_body_of_an_unknown_game_shows_the_installed_content(
    page: Page, live_core: LiveCore
) -> None:
    """A stale game id in the overlay's address still gives the help (installed content)."""
    page.goto(f"{live_core.url}/?token={live_core.token}")
    response = page.request.get(f"{live_core.url}/help/body?game=no-such-game")
    assert response.status == 200
    page.set_content(response.text())
    expect(page.locator(".help-card[data-kind=wildling]")).to_have_count(
        len(installed(live_core).wildling_cards)
    )
