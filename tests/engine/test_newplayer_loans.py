"""Issue 37 point 4: the Iron Bank's decisions say what they ask (RULES.md 11.9.4, 11.9.6).

The prompt data the board words: a loan whose units the buyer's pool cannot give (Targaryen has
no siege engines, 11.4.3) is named with the missing units, and the Faceless Men's questions
name the unit to kill and, per area, whose unit it is."""

from __future__ import annotations

import pytest

from tests.builders import act, prompt, put, run
from westeros.engine import new_game
from westeros.engine.actions import Choose
from westeros.engine.content import Ruleset
from westeros.engine.state import State
from westeros.engine.view import player_view
from westeros.plugins import build_ruleset
from westeros_mother_of_dragons.iron_bank import BuyLoan

BANK = {"mother_of_dragons": True, "mod_iron_bank": True}
ORDER = "11.9.4 Iron Bank"


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(BANK)


def offer(rules: Ruleset, house: str, loans: tuple[str, ...]) -> State:
    """An 8-player game on an empty board where ``house`` resolves an Iron Bank order with
    ``loans`` on offer (the 7-, 4- and 1-cost slots) and 10 Power tokens."""
    s = new_game(rules, 8, 1, BANK, start=False)
    s.units.clear()
    s.orders.clear()
    s.power_tokens.clear()
    s.power[house] = 10
    s.ext["iron_bank_slots"] = loans
    return run(s, BuyLoan(house, (*(loan for loan in loans if loan), "pass"), ORDER))


def test_issue37_siege_engineers_offered_to_targaryen_names_the_missing_engines(
    rules: Ruleset,
) -> None:
    """Issue 37 point 4: Targaryen was sold Siege Engineers (7 Power) with no word that its
    pool holds no siege engine (11.4.3): the offer names both missing engines, and no loan
    that Targaryen can fully use."""
    s = offer(rules, "targaryen", ("siege-engineers", "vanguard-cavalry", "customs-officer"))
    data = player_view(s, "targaryen")["prompt"]["data"]
    assert data["missing_units"] == {"siege-engineers": ["siege_engine", "siege_engine"]}
    assert set(data["costs"]) == {"siege-engineers", "vanguard-cavalry", "customs-officer"}


def test_issue37_siege_engineers_offered_to_stark_misses_nothing(rules: Ruleset) -> None:
    """Issue 37 point 4: a house with siege engines in its pool is not warned."""
    s = offer(rules, "stark", ("siege-engineers", "", ""))
    assert player_view(s, "stark")["prompt"]["data"]["missing_units"] == {}


def test_issue37_faceless_men_name_the_unit_and_whose_it_is(rules: Ruleset) -> None:
    """Issue 37 point 4: the Faceless Men asked "Make a choice" with bare area names. The
    knight's question and then the footman's name the unit and each area's house, the
    buyer's own included (the board warns on those)."""

    def board(s: State) -> None:
        put(s, "riverrun", "lannister", "knight", "footman")
        put(s, "winterfell", "stark", "knight")
        put(s, "harrenhal", "baratheon", "footman")

    s = new_game(rules, 8, 1, BANK, start=False)
    s.units.clear()
    s.orders.clear()
    s.power_tokens.clear()
    s.power["stark"] = 10
    board(s)
    s.ext["iron_bank_slots"] = ("the-faceless-men", "", "")
    s = run(s, BuyLoan("stark", ("the-faceless-men", "pass"), ORDER))
    s = act(s, "stark", Choose("the-faceless-men"))
    asked = prompt(s, "stark")
    assert asked.kind == "faceless_men"
    assert asked.data["unit"] == "knight"
    assert asked.data["victims"] == {"riverrun": "lannister", "winterfell": "stark"}
    s = act(s, "stark", Choose("riverrun"))
    asked = prompt(s, "stark")
    assert asked.kind == "faceless_men"
    assert asked.data["unit"] == "footman"
    assert asked.data["victims"] == {"harrenhal": "baratheon"}
    s = act(s, "stark", Choose("harrenhal"))
    assert [u.type for u in s.units["riverrun"]] == ["footman"]
    assert "harrenhal" not in s.units
