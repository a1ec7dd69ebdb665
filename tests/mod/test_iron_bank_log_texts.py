"""The Iron Bank and sea-order log texts (RULES.md 11.8, 11.9) read as sentences in English and
Simplified Chinese, and every event of a random game with both options worded without raw
ids."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import westeros
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.setup import new_game
from westeros.engine.view import event_view, visible
from westeros.plugins import load
from westeros.server.i18n import Catalogs
from westeros.server.narrate import Narrator

from .test_sea_orders_placement import BOTH

GAME_LOCALE = Path(westeros.__file__).resolve().parent / "locale"
TAKEN = {"kind": "loan_taken", "house": "greyjoy", "loan": "the-faceless-men", "cost": 4}
MARKET = {
    "kind": "loan_market",
    "slots": ["spymaster", "pyromancer", ""],
    "discarded": "full-host",
}
INTEREST = {"kind": "interest_paid", "house": "stark", "paid": 1, "missing": 2}
IMPROVED = {"kind": "area_improved", "house": "tyrell", "area": "the-reach", "change": "barrel"}


@pytest.fixture(scope="module")
def narrators() -> dict[str, Narrator]:
    loaded = load(BOTH)
    catalogs = Catalogs([GAME_LOCALE, *loaded.translations])
    return {lang: Narrator(loaded.ruleset, catalogs.translations(lang)) for lang in ("en", "zh_CN")}


def test_11_9_loans_in_english(narrators: dict[str, Narrator]) -> None:
    en = narrators["en"]
    assert en(TAKEN) == "Greyjoy takes the loan The Faceless Men for 4 PT."
    assert en(MARKET) == (
        "The Iron Bank offers: Spymaster (7 PT), Pyromancer (4 PT). "
        "Full Host goes to the bottom of the loan deck."
    )
    assert en(INTEREST) == (
        "Stark pays 1 PT of interest to the Iron Bank. It lacks 2 PT: 2 of its units are destroyed."
    )
    assert en(IMPROVED) == "The Reach gets a supply improvement (+1 barrel)."


def test_11_9_loans_in_chinese(narrators: dict[str, Narrator]) -> None:
    zh = narrators["zh_CN"]
    assert zh(TAKEN) == "葛雷乔伊花费4个权力标记获得贷款卡无面者。"
    assert zh(MARKET).startswith("铁金库提供：情报总管（7个权力标记）")
    assert "铁金库" in zh(INTEREST)


RAW_ID = re.compile(r"\b[a-z]+(?:[-_][a-z0-9]+)+\b")


def test_11_9_every_event_of_a_random_game_reads_without_raw_ids(
    narrators: dict[str, Narrator],
) -> None:
    rules = load(BOTH).ruleset
    state = new_game(rules, 7, 9300, BOTH)
    rnd = random.Random(9300)
    kinds: set[str] = set()
    while not state.over:
        house = sorted(pending(state))[0]
        state, events = apply(state, house, random_action(state, house, rnd))
        for event in events:
            if not visible(event, house):
                continue
            kinds.add(event.kind)
            for lang in ("en", "zh_CN"):
                text = narrators[lang](event_view(event))
                assert not RAW_ID.search(text), (lang, event.kind, text)
    assert {"loan_market", "loan_taken", "interest_paid"} <= kinds
