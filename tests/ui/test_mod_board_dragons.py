"""Dragons on the board (RULES.md 11.5), in Chromium against the real core: in an 8-player
Mother of Dragons game (House Targaryen played by the person, seven AIs) the dragons are drawn
with their own icon and their strength as the engine counts it (11.5.2); a March order on a
group of only dragons offers, besides the adjacent areas, every land area the engine lists for
a flight (11.5.3), and the person flies the dragon by clicks on the map to a far area of
Westeros, where it then stands."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from westeros.engine import board
from westeros.engine.state import Unit

from .driver import Played, commit, play_one, prompt_kind, start_on_screen, wait_for_decision
from .live import LiveCore

PERSON = "targaryen"
NEST = "norvos"  # Targaryen starts with a lone dragon here (11.3)
SEED = "8008"


def start(page: Page, core: LiveCore) -> str:
    """An 8-player Mother of Dragons game started on the new-game screen."""
    return start_on_screen(page, core, PERSON, 8, SEED, ["mother_of_dragons"])


def test_11_5_3_the_person_flies_a_dragon_by_clicks_to_a_far_land_area(
    page: Page, live_core: LiveCore
) -> None:
    game_id = start(page, live_core)
    state = live_core.session(game_id).state
    dragon = page.locator(f"[data-testid=pieces-{NEST}] .w-unit-strong[data-unit=dragon]")
    expect(dragon).to_have_count(1)
    strength = board.unit_strength(state, Unit(PERSON, "dragon"), False)
    expect(dragon).to_have_attribute("data-strength", str(strength))
    expect(dragon.locator("use")).to_have_attribute("href", "#unit-dragon")

    played = Played()
    play_one(page, played, prefer={NEST: "march"})
    assert played.orders[NEST].startswith("march")
    while True:
        assert wait_for_decision(page, until_round=2), "the dragon's March order never came"
        if prompt_kind(page) == "march" and (
            page.get_by_test_id(f"march-origin-{NEST}").count()
            or page.locator(f"[data-testid=pieces-{NEST}] .w-order").count()
        ):
            break
        play_one(page, played)
    page.get_by_test_id(f"area-{NEST}").click()
    expect(page.locator(".unit-pick[data-unit=dragon].is-selected")).to_have_count(1)
    state = live_core.session(game_id).state
    rules = state.rules
    near = rules.adjacency[NEST]
    quiet = [
        (b.get_attribute("data-testid") or "").removeprefix("march-dest-")
        for b in page.locator(".dest[data-combat='']").all()
    ]
    two_steps = set(near).union(*(rules.adjacency[a] for a in near))
    far = [a for a in quiet if a not in two_steps and rules.domain[a] == "land"]
    assert far, f"no flight destination offered beyond two steps: {quiet}"
    target = far[0]
    page.get_by_test_id(f"area-{target}").click()
    expect(page.locator(f".march-group[data-to={target}]")).to_be_visible()
    page.screenshot(path="artifacts/mod-board-dragon-flight.png")
    page.locator("[data-testid=commit][data-checked='1']").wait_for(timeout=10_000)
    commit(page)
    state = live_core.session(game_id).state
    assert any(u.type == "dragon" and u.house == PERSON for u in state.units.get(target, ()))
    expect(page.locator(f"[data-testid=pieces-{target}] .w-unit[data-unit=dragon]")).to_have_count(
        1
    )
    page.screenshot(path="artifacts/mod-board-dragon-landed.png")
