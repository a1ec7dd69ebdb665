"""Two full rounds of an 8-player Mother of Dragons game with the Iron Bank, in Chromium against
the real core (RULES.md 11): the person plays House Targaryen against seven AIs and answers
every decision by clicks. In round 1 the lone dragon of Norvos flies across the Narrow Sea to
The Mountains of the Moon, a destination only a flight reaches (11.5.3), and the Iron Bank
order in the Port of Pentos buys the loan on offer (11.9.4), whose footman joins Pentos. In
round 2's Westeros phase the deck IV card Empty Promises (seed 8008) offers Targaryen its
option (11.11.2): the person pays 1 Power token for a loyalty token on The Mountains of the
Moon, which the dragon holds, so Targaryen collects it at the end of the phase (11.6.3). Round 3
then begins. The zh-CN board asks the same in Chinese."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from .driver import (
    Played,
    commit,
    play_one,
    prompt_kind,
    round_number,
    wait_for_decision,
)
from .live import LiveCore
from .mod_8p import NEST, PERSON, WAIT_MS, no_english, power_shown, start, units_shown

SEED = "8008"  # round 2 reveals Empty Promises from deck IV (found by a seed search)
OPTIONS = ("mother_of_dragons", "mod_iron_bank")
PERCH = "the-mountains-of-the-moon"  # a land area of Westeros, far from every Essos area
BANK = "port-of-pentos"
HOME = "pentos"
ORDERS = {
    NEST: "march",
    BANK: "iron-bank",
    HOME: "consolidate_power",
    "myr": "consolidate_power",
    "the-rhoyne": "defense",
    "bay-of-pentos": "support",
    PERCH: "defense",
}
"""The order type the person gives each area it holds, both rounds (4.1, 11.8.1)."""


def fly_the_dragon(page: Page) -> None:
    """Norvos's March order: the dragon flies to The Mountains of the Moon (11.5.3)."""
    expect(page.locator(".unit-pick[data-unit=dragon].is-selected")).to_have_count(1)
    expect(page.get_by_test_id(f"march-dest-{PERCH}")).to_have_attribute("data-reach", "flight")
    page.get_by_test_id(f"area-{PERCH}").click()
    expect(page.locator(f".march-group[data-to={PERCH}]")).to_be_visible()
    page.locator("[data-testid=commit][data-checked='1']").wait_for(timeout=WAIT_MS)
    commit(page)
    expect(units_shown(page, PERCH, "dragon")).to_have_count(1, timeout=WAIT_MS)
    expect(units_shown(page, NEST, "dragon")).to_have_count(0)


def buy_the_loan(page: Page) -> None:
    """The Iron Bank order: buy the loan in the 7-Power slot with the panel's button; its
    footman goes to Pentos (11.9.4, 11.9.6)."""
    panel = page.get_by_test_id("plugin-panel-iron_bank")
    loan = panel.get_by_test_id("loan-slot-0").get_attribute("data-loan") or ""
    assert loan, "round 1 puts a loan in the dearest slot (11.9.3)"
    paid = int(power_shown(page).inner_text()) - 7
    panel.get_by_test_id(f"buy-{loan}").click()
    expect(panel.get_by_test_id("loans-held").locator(f"li[data-house={PERSON}]")).to_be_visible(
        timeout=WAIT_MS
    )
    expect(panel.get_by_test_id("loan-slot-0")).to_have_attribute("data-loan", "")
    expect(power_shown(page)).to_have_text(str(paid))
    expect(page.locator("body[data-prompt=loan_unit]")).to_be_attached(timeout=WAIT_MS)
    footmen = units_shown(page, HOME, "footman").count()
    page.get_by_test_id(f"option-{HOME}").click()
    commit(page)
    expect(units_shown(page, HOME, "footman")).to_have_count(footmen + 1, timeout=WAIT_MS)


def take_the_deck_iv_option(page: Page, artifacts: Path) -> None:
    """Empty Promises: pay 1 Power token, a loyalty token on The Mountains of the Moon, which
    Targaryen holds and collects at the end of the Westeros phase (11.11.2, 11.6.3)."""
    prompt = page.get_by_test_id("prompt")
    left = int(power_shown(page).inner_text()) - 1
    expect(prompt).to_contain_text("Empty Promises: your choice")
    expect(prompt).to_contain_text("discard 1 Power token to put a loyalty token on Moat Cailin")
    expect(page.get_by_test_id("option-moat-cailin")).to_be_visible()
    expect(page.get_by_test_id("option-pass")).to_have_text("Pass")
    page.screenshot(path=str(artifacts / "mod_8p_deck_iv_choice.png"))
    loyalty = page.get_by_test_id("plugin-panel-loyalty")
    expect(loyalty.locator("li[data-area=the-stony-shore]")).to_have_attribute("data-count", "1")
    expect(page.get_by_test_id("loyalty-the-stony-shore")).to_have_attribute("data-count", "1")
    expect(page.get_by_test_id(f"loyalty-{PERCH}")).to_have_count(0)
    collected = int(loyalty.get_by_test_id("loyalty-collected").get_attribute("data-count") or 0)
    page.get_by_test_id(f"option-{PERCH}").click()
    commit(page)
    expect(loyalty.get_by_test_id("loyalty-collected")).to_have_attribute(
        "data-count", str(collected + 1), timeout=WAIT_MS
    )
    expect(loyalty.locator(f"li[data-area={PERCH}]")).to_have_count(0)
    expect(page.get_by_test_id(f"loyalty-{PERCH}")).to_have_count(0)  # collected at once
    expect(page.get_by_test_id("loyalty-the-stony-shore")).to_have_attribute("data-count", "1")
    log = page.get_by_test_id("log")
    expect(log).to_contain_text(
        "A loyalty token is placed on The Mountains of the Moon (Empty Promises).",
        timeout=WAIT_MS,
    )
    expect(power_shown(page)).to_have_text(str(left), timeout=WAIT_MS)
    expect(log).to_contain_text(
        re.compile(r"Targaryen collects \d loyalty tokens? in [^.]*The Mountains of the Moon"),
        timeout=WAIT_MS,
    )


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_11_an_8_player_game_as_targaryen_through_two_rounds_by_clicks(
    page: Page, live_core: LiveCore, artifacts: Path, lang: str
) -> None:
    """In zh-CN no prompt the person sees has English in it; that game stops at deck IV's
    choice."""
    start(page, live_core, SEED, OPTIONS, lang)
    played = Played()
    done: list[str] = []
    while wait_for_decision(page, until_round=3, timeout_ms=WAIT_MS):
        kind = prompt_kind(page)
        no_english(page, lang)
        if kind == "march" and round_number(page) == 1:
            fly_the_dragon(page)
            done.append("flight")
        elif kind == "iron_bank_loan":
            buy_the_loan(page)
            done.append("loan")
        elif kind == "choose_option" and page.get_by_test_id(f"option-{PERCH}").count():
            done.append("deck IV")
            if lang != "en":
                page.screenshot(path=str(artifacts / "mod_8p_deck_iv_choice_zh.png"))
                break
            take_the_deck_iv_option(page, artifacts)
        elif kind in ("bid", "wildling_bid"):
            commit(page)  # nothing: the Power tokens pay for deck IV's option
        else:
            play_one(page, played, ORDERS)
    assert done == ["flight", "loan", "deck IV"], done
    if lang != "en":
        return
    assert played.orders[BANK] == "iron-bank"
    expect(page.locator("[data-testid=round-track] .is-marked")).to_have_text("3")
    page.screenshot(path=str(artifacts / "mod_8p_two_rounds.png"))
