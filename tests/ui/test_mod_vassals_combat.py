"""A vassal's combat answered on the board (RULES.md 11.10.8, 11.7.4, 5.4.3): the person commands
Arryn; its decisions up to Arryn's combat are made through the session (the game's own AI on the
person's view), then the person picks Arryn's house card by clicks from the three vassal cards
drawn for it, on a screen that says it decides for Arryn; the log shows the card clicked, the
combat panel the cards in the end played (Jaqen H'ghar makes Stark play another, 5.4.4), and the
other seats never see Arryn's drawn cards."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from tests.mod.test_vassals_cards import DECK as VASSAL_DECK
from westeros.engine.actions import Action
from westeros.engine.flow import pending
from westeros.session import GameSession
from westeros.session.errors import StaleState

from .driver import start_on_screen
from .live import LiveCore, seeded_bots
from .test_mod_vassals_board import OPTIONS, PERSON, VASSAL

SEED = "1"
"""Arryn, claimed by Baratheon, defends The Narrow Sea against Stark in round 2 (a seed search
with the game's own AI on every seat)."""
JAQEN = "jaqen-h-ghar"
GIVE_UP_S = 180.0


def play_until_vassal_card(session: GameSession) -> dict[str, Any]:
    """Answer the person's and Arryn's decisions with the game's own AI on their views (Arryn
    claimed at every claiming) until Arryn is asked for its house card; that prompt."""
    bot = seeded_bots(PERSON, None)
    held: tuple[tuple[str, str], Action] | None = None  # decided, not yet accepted
    deadline = time.monotonic() + GIVE_UP_S
    while time.monotonic() < deadline:
        state = session.state
        assert state.round <= 2 and not session.over, "Arryn fought no combat in two rounds"
        mine = sorted(h for h in pending(state) if session.seat_of(h) == PERSON)
        if not mine:
            time.sleep(0.05)
            continue
        house = mine[0]
        prompt = pending(state)[house]
        if house == VASSAL and prompt.kind == "choose_house_card":
            asked = session.hub.view(PERSON)["answering_for"][VASSAL]["prompt"]
            if asked is None:  # the state moved on since ``state`` was read: look again
                continue
            return dict(asked)
        view = session.hub.view(house)
        if view["prompt"] is None:  # an AI moved since ``state`` was read: look again
            continue
        if prompt.kind == "claim_vassals":
            claim = [VASSAL] if VASSAL in prompt.data["vassals"] else []
            action = {"kind": "claim_vassals", "vassals": claim}
            message = {"type": "action", "action": action, "state_id": state.serial}
            session.handle(PERSON, message)
            continue
        key = (house, repr(prompt))
        if held is None or held[0] != key:  # an AI moved meanwhile: the same decision again
            held = (key, bot.decide(view, state.rules, 1.0))
        try:
            session.submit(house, held[1], state.serial)
        except StaleState:
            continue
        held = None
    raise AssertionError("the game did not reach Arryn's combat in time")


def test_11_10_8_the_commander_picks_its_vassals_house_card_by_clicks(
    page: Page, live_core: LiveCore
) -> None:
    game_id = start_on_screen(page, live_core, PERSON, 4, SEED, OPTIONS)
    session = live_core.session(game_id)
    asked = play_until_vassal_card(session)
    drawn = asked["data"]["cards"]
    assert len(drawn) == 3 and set(drawn) <= VASSAL_DECK  # the seven vassal cards (11.7.4)

    prompt = page.get_by_test_id("prompt")
    expect(prompt).to_have_attribute("data-for", VASSAL, timeout=30_000)
    expect(page.get_by_test_id("answering-for")).to_have_text("You decide for Arryn.")
    expect(prompt.get_by_role("heading")).to_have_text("Choose the house card of Arryn")
    expect(prompt.locator("[data-testid^=card-]")).to_have_count(3)
    for card in drawn:
        expect(page.get_by_test_id(f"card-{card}")).to_be_visible()
    others = [h for h in session.players if h != PERSON]
    assert all(session.hub.view(h)["hands"][VASSAL] == [] for h in others)

    assert JAQEN in drawn  # a fact of this seed
    tile = page.get_by_test_id(f"card-{JAQEN}")
    name = tile.locator(".card-name").inner_text()
    tile.click()
    expect(tile).to_have_attribute("aria-checked", "true")
    page.locator("[data-testid=hint][data-ready='1']").wait_for(timeout=10_000)
    page.get_by_test_id("commit").click()

    log = page.get_by_test_id("log")
    expect(log).to_contain_text(f"Arryn plays {name}", timeout=30_000)
    expect(log).to_contain_text("Arryn wins the combat in The Narrow Sea", timeout=30_000)
    # Jaqen H'ghar makes Stark play another card: the combat panel shows the card played.
    [replaced] = [e.data for _, e in session.history() if e.kind == "house_card_replaced"]
    assert replaced["house"] == "stark"
    combat = page.get_by_test_id("combat")
    stark = combat.get_by_test_id("combat-attacker").locator(".card-tile")
    expect(stark).to_have_attribute("data-card", replaced["card"])
    expect(combat.get_by_test_id("combat-defender").locator(".card-tile")).to_have_attribute(
        "data-card", JAQEN
    )
    page.screenshot(path="artifacts/mod-vassals-combat.png")
