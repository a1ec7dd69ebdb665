"""Issue 37 point 2, "Mother of Dragons explained", in real Chromium against the real core:
How to play has a "Mother of Dragons (expansion)" section (RULES.md 11) on the start screen,
in English and Chinese; a game's board shows the parts of it that game has, the Westeros phase
of a game with deck IV says four decks, not three (11.11.1); the card reference labels
Targaryen's A and B decks (11.7.2, 11.7.3) and lists the shared vassal deck (11.7.4); and the
Houses panel shows Targaryen's victory points, not "Castles" (11.6.4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Locator, Page, expect

from westeros.engine import board

from .live import LiveCore
from .test_board_fixes import open_board
from .test_zh_walk import assert_chinese

MOD = "mother_of_dragons"
SECTION = "help-mother_of_dragons"
TOPICS = {
    "arryn": "11.1-11.3",
    "targaryen": "11.2.3, 11.4, 11.6.6",
    "dragons": "11.5",
    "dragon_flight": "11.5.3-11.5.5",
    "alternate_dragons": "11.2.2",
    "loyalty": "11.6",
    "iron_bank": "11.9",
    "sea_orders": "11.8",
    "deck_iv": "11.11",
    "vassals": "11.10",
}
"""Every Mother of Dragons topic and the RULES.md section it follows."""
TARGARYEN_ONLY = ("targaryen", "dragons", "dragon_flight", "loyalty", "deck_iv")
A_DECK = {
    "Khal Drogo",
    "Arstan Whitebeard",
    "Xaro Xhoan Daxos",
    "Ser Jorah Mormont",
    "Daenerys Targaryen",
    "Viserys Targaryen",
    "Illyrio Mopatis",
}  # RULES.md 11.7.2
B_DECK = {
    "Daenerys Targaryen",
    "Daario Naharis",
    "Gray Worm",
    "Strong Belwas",
    "Captain Groleo",
    "Rakharo",
    "Missandei",
}  # RULES.md 11.7.3
VASSAL_DECK = {
    "Varys": "Strength 0",
    "Syrio Forel": "Strength 1",
    "Jaqen H'ghar": "Strength 1",
    "Janos Slynt": "Strength 2 · 2 swords · 1 fortification",
    "Jon Connington": "Strength 2",
    "Beric Dondarrion": "Strength 3",
    "Bronn": "Strength 4",
}  # RULES.md 11.7.4
DRAGON_STRENGTH = [
    "round 1: 0;",
    "rounds 2 and 3: 1;",
    "rounds 4 and 5: 2;",
    "rounds 6 and 7: 3;",
    "rounds 8 and 9: 4;",
    "round 10: 5 (a routed dragon is always 0).",
]  # RULES.md 11.5.2


def names(deck: Locator) -> set[str]:
    return set(deck.locator(".help-card-name").all_inner_texts())


def open_help_page(page: Page, core: LiveCore, lang: str) -> None:
    page.goto(f"{core.url}/?token={core.token}&lang={lang}")
    page.get_by_test_id("howto-link").click()
    page.wait_for_url(re.compile(r"/help$"))
    expect(page.get_by_test_id("help-body")).to_be_visible()


def open_board_help(page: Page) -> Locator:
    """The board's How to play overlay, once loaded."""
    page.locator(".topbar-tools").get_by_test_id("howto-open").click()
    dialog = page.get_by_test_id("howto")
    expect(dialog.get_by_test_id("card-reference")).to_be_visible()
    return dialog


def westeros_phase(where: Page | Locator) -> Locator:
    return where.get_by_test_id("help-phases-westeros")


def test_issue37_point2_the_start_screen_explains_mother_of_dragons_under_its_own_heading(
    page: Page, live_core: LiveCore, artifacts: Path
) -> None:
    """Every topic of RULES.md 11 under "Mother of Dragons (expansion)", each citing its
    section, after the base game's (whose Westeros phase keeps its three decks, 3.2); the
    expansion's house cards: Arryn's, Targaryen's A and B decks and the vassal deck."""
    open_help_page(page, live_core, "en")
    section = page.locator(f"#{SECTION}")
    expect(section.get_by_role("heading", level=2)).to_have_text("Mother of Dragons (expansion)")
    page.get_by_role("link", name="Mother of Dragons (expansion)").click()
    expect(section).to_be_in_viewport()
    shown = section.locator("[data-help-topic]")
    assert [t.get_attribute("data-help-topic") for t in shown.all()] == list(TOPICS)
    for topic, rule in TOPICS.items():
        expect(section.get_by_test_id(f"{SECTION}-{topic}").locator(".help-rule")).to_have_text(
            f"Rules §{rule}"
        )
    dragons = section.get_by_test_id(f"{SECTION}-dragons")
    expect(dragons.locator(".help-steps li")).to_have_text(DRAGON_STRENGTH)
    loyalty = section.get_by_test_id(f"{SECTION}-loyalty")
    expect(loyalty).to_contain_text("plus 1 while it controls Pentos")
    expect(loyalty).to_contain_text("Targaryen does not count castles")
    expect(westeros_phase(page)).to_contain_text("each of the three Westeros decks")

    expect(section.get_by_test_id("help-deck-targaryen-a").locator("h5")).to_have_text(
        "Targaryen: A deck"
    )
    assert names(section.get_by_test_id("help-deck-targaryen-a")) == A_DECK
    assert names(section.get_by_test_id("help-deck-targaryen-b")) == B_DECK
    vassals = section.get_by_test_id("help-deck-vassal-deck")
    expect(vassals.locator("h5")).to_have_text("Vassal deck, shared by every vassal")
    for name, facts in VASSAL_DECK.items():
        card = vassals.locator(".help-card").filter(has_text=name)
        expect(card.locator(".help-card-facts")).to_have_text(facts)
    expect(vassals.locator(".help-card")).to_have_count(len(VASSAL_DECK))
    expect(section.get_by_test_id("help-deck-arryn").locator(".help-card")).to_have_count(7)
    section.get_by_test_id("help-deck-targaryen-a").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "help-mother-of-dragons-decks.png"))


def test_issue37_point2_the_start_screen_explains_mother_of_dragons_in_chinese(
    page: Page, live_core: LiveCore
) -> None:
    """The same section in zh-CN with the glossary's terms, no English left."""
    open_help_page(page, live_core, "zh_CN")
    section = page.locator(f"#{SECTION}")
    expect(section.get_by_role("heading", level=2)).to_have_text("龙之母（扩展包）")
    expect(section.get_by_test_id(f"{SECTION}-loyalty")).to_contain_text("忠诚标记")
    expect(section.get_by_test_id(f"{SECTION}-deck_iv")).to_contain_text("第四叠事件牌")
    expect(section.get_by_test_id("help-deck-targaryen-b").locator("h5")).to_contain_text(
        "坦格利安：B 套将领牌"
    )
    expect(section.get_by_test_id("help-deck-vassal-deck").locator("h5")).to_have_text(
        "附庸将领牌（所有附庸共用）"
    )
    assert_chinese(page, "the help page with Mother of Dragons")


def test_issue37_point2_an_8_player_board_explains_four_decks_targaryen_and_its_points(
    page: Page, live_core: LiveCore, artifacts: Path
) -> None:
    """An 8-player game (11.2.2): the Westeros phase reveals four decks (11.11.1), the
    Targaryen topics are there and the options it lacks (vassals, the Iron Bank, sea orders)
    are not; "Show on board" finds Targaryen's dragons (11.5); the card reference labels
    Targaryen's two decks; the Houses panel shows every house's victory points and Targaryen's
    is its loyalty: none collected yet, plus 1 for Pentos (11.6.4)."""
    games = live_core.app.state.games
    session = games.create(
        players=8, human="targaryen", seed=3, options={MOD: True}, start_ai=False
    )
    state = session.state
    assert len(state.westeros_decks) == 4
    open_board(page, live_core, session, "targaryen")

    row = page.get_by_test_id("house-targaryen")
    assert board.controller(state, "pentos") == "targaryen"
    expect(row.locator("[data-stat=points]")).to_have_text("1")
    expect(row.locator(".stat-points dt")).to_have_text("Points")
    expect(page.locator("#houses [data-stat=castles]")).to_have_count(0)

    dialog = open_board_help(page)
    phase = westeros_phase(dialog)
    expect(phase).to_contain_text("each of the four Westeros decks (I, II, III and IV)")
    expect(phase).not_to_contain_text("three")
    expect(phase.locator(".help-steps li").last).to_have_text(
        "The cards are resolved in deck order: I, then II, then III, then IV."
    )
    expect(phase.locator(".help-rule")).to_have_text("Rules §3.2, 11.11")
    section = dialog.locator(f"#{SECTION}")
    shown = [t.get_attribute("data-help-topic") for t in section.locator("[data-help-topic]").all()]
    assert shown == ["arryn", *TARGARYEN_ONLY], shown  # no option's topic
    iron_bank_order = dialog.get_by_test_id("help-orders-iron_bank")
    expect(iron_bank_order).to_contain_text("buy one of the Iron Bank's loans")

    targaryen = dialog.locator(".help-deck[data-house=targaryen]")
    expect(targaryen.locator("h4")).to_have_text("Targaryen")
    expect(targaryen.locator(".help-subdeck h5")).to_have_text(
        ["Targaryen: A deck", "Targaryen: B deck (with the Targaryen B deck option)"]
    )
    assert names(targaryen.get_by_test_id("help-deck-targaryen-a")) == A_DECK
    assert names(targaryen.get_by_test_id("help-deck-targaryen-b")) == B_DECK
    expect(dialog.locator("[data-shared-deck]")).to_have_count(0)  # no vassals in this game
    expect(dialog.locator(".help-deck[data-house=arryn] .help-subdeck")).to_have_count(0)

    targaryen.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "help-8p-targaryen-decks.png"))
    dragons = sum(1 for units in state.units.values() for u in units if u.type == "dragon")
    section.get_by_test_id("show-dragons").click()
    expect(page.locator("#map .w-unit[data-unit=dragon].help-spot")).to_have_count(dragons)


def test_issue37_point2_a_vassal_board_explains_vassals_and_lists_the_vassal_deck(
    page: Page, live_core: LiveCore
) -> None:
    """A 4-player vassal game without Targaryen (11.2.5): three Westeros decks, the vassal
    topic, no Targaryen topic, and the vassal deck after the houses in the card reference
    (11.7.4); the Houses panel keeps "Castles" (every house scores castle areas, 9.1)."""
    options = {MOD: True, "mod_vassals": True}
    games = live_core.app.state.games
    session = games.create(players=4, human="stark", seed=3, options=options, start_ai=False)
    assert "targaryen" not in session.state.houses
    open_board(page, live_core, session, "stark")
    expect(page.locator("#houses [data-stat=points]")).to_have_count(0)
    expect(page.locator("[data-testid=house-stark] [data-stat=castles]")).to_be_visible()

    dialog = open_board_help(page)
    expect(westeros_phase(dialog)).to_contain_text("each of the three Westeros decks")
    section = dialog.locator(f"#{SECTION}")
    shown = [t.get_attribute("data-help-topic") for t in section.locator("[data-help-topic]").all()]
    assert shown == ["arryn", "vassals"], shown
    expect(section.get_by_test_id(f"{SECTION}-vassals")).to_contain_text(
        "draws 3 cards from the shared vassal deck"
    )
    shared = dialog.locator("[data-shared-deck=vassal-deck]")
    expect(shared.locator("h4")).to_have_text("Vassal deck, shared by every vassal")
    assert names(shared) == set(VASSAL_DECK)
    expect(shared.locator(".help-card[data-kind=house]")).to_have_count(len(VASSAL_DECK))
