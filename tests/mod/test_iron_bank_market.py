"""The Iron Bank (RULES.md 11.9.1-11.9.5) in 7-player Mother of Dragons games: setup, the
ageing market, buying a loan with an Iron Bank order, raiding one, and interest with the
Valyrian Steel Blade holder destroying a debtor's units. Costs 7/4/1 and the 7 starting PT are
copied from RULES.md 11.9.1."""

from __future__ import annotations

import pytest

from tests.builders import act, order, prompt, put, run
from westeros.engine.action_phase import OrderLoop
from westeros.engine.actions import Choose, SelectUnits
from westeros.engine.consolidate import ResolveConsolidate
from westeros.engine.content import Ruleset
from westeros.engine.flow import pending
from westeros.engine.raid import ResolveRaid
from westeros.engine.round import Round
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.engine.victory import consequences
from westeros.engine.view import player_view
from westeros.plugins import build_ruleset
from westeros_mother_of_dragons import iron_bank

from .test_sea_orders_placement import BOTH

ALL_LOANS = 12


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(BOTH)


def bank_game(rules: Ruleset) -> State:
    """A 7-player game with both options, an empty board and the Blade already used."""
    s = new_game(rules, 7, 1, BOTH, start=False)
    s.units.clear()
    s.orders.clear()
    s.power_tokens.clear()
    s.blade_used = True
    return s


def market(s: State, house: str = "stark") -> list[str]:
    return list(player_view(s, house)["ext"]["iron_bank_slots"])


def test_11_9_1_setup_seven_power_and_a_hidden_deck_of_twelve(rules: Ruleset) -> None:
    s = new_game(rules, 7, 1, BOTH)
    view = player_view(s, "stark")
    assert set(view["power"].values()) == {7}
    assert "_iron_bank_deck" not in view["ext"]  # the deck order stays secret
    offered = [loan for loan in view["ext"]["iron_bank_slots"] if loan]
    assert len(offered) == 1  # round 1 draws the first loan into the 7-cost slot
    assert len(set(s.ext["_iron_bank_deck"]) | set(offered)) == ALL_LOANS
    plain = new_game(rules, 7, 1, {"mother_of_dragons": True})
    assert set(plain.power.values()) == {5}
    assert "iron_bank_slots" not in player_view(plain, "stark")["ext"]


def test_11_9_3_market_ages_seven_to_four_to_one_then_to_the_bottom(rules: Ruleset) -> None:
    s = bank_game(rules)
    s.ext["_iron_bank_deck"] = ("spymaster", "full-host", "pyromancer", "sea-raiders", "x")
    seen = []
    for round_no in (1, 2, 3, 4):
        s.round = round_no
        s.stack = ()
        s = run(s, Round())
        seen.append(market(s))
    assert seen == [
        ["spymaster", "", ""],
        ["full-host", "spymaster", ""],
        ["pyromancer", "full-host", "spymaster"],
        ["sea-raiders", "pyromancer", "full-host"],
    ]
    assert s.ext["_iron_bank_deck"] == ("x", "spymaster")  # pushed out of the 1 slot


def test_11_9_3_an_empty_deck_leaves_the_7_slot_empty(rules: Ruleset) -> None:
    s = bank_game(rules)
    s.ext["_iron_bank_deck"] = ()
    s.ext["iron_bank_slots"] = ("spymaster", "", "")
    s = run(s, Round())
    assert market(s) == ["", "spymaster", ""]


def iron_bank_order(rules: Ruleset, power: int) -> State:
    """Greyjoy resolves its Iron Bank order in Ironman's Bay with ``power`` PT; the market
    offers Customs Officer (7), Spymaster (4) and Sea Raiders (1)."""
    s = bank_game(rules)
    put(s, "ironmans-bay", "greyjoy", "ship")
    order(s, "ironmans-bay", "iron-bank")
    s.power["greyjoy"] = power
    s.ext["iron_bank_slots"] = ("customs-officer", "spymaster", "sea-raiders")
    s = run(s, OrderLoop("consolidate_power"))
    p = prompt(s, "greyjoy")
    assert p.kind == "consolidate_power"
    assert p.data["orders"]["ironmans-bay"]["yield"] == 0  # never yields PT (11.8.1)
    return act(s, "greyjoy", ResolveConsolidate("ironmans-bay"))


def test_11_9_4_purchase_pays_the_slot_cost_and_resolves_at_once(rules: Ruleset) -> None:
    s = iron_bank_order(rules, 7)
    p = prompt(s, "greyjoy")
    assert p.kind == "iron_bank_loan"
    assert p.data["options"] == ["customs-officer", "spymaster", "sea-raiders", "pass"]
    assert p.data["costs"] == {"customs-officer": 7, "spymaster": 4, "sea-raiders": 1}
    s = act(s, "greyjoy", Choose("customs-officer"))
    assert s.power["greyjoy"] == 7 - 7 + 10  # paid 7, then Customs Officer's 10
    view = player_view(s, "stark")
    assert [list(p) for p in view["ext"]["iron_bank_loans"]] == [["greyjoy", "customs-officer"]]
    assert market(s) == ["", "spymaster", "sea-raiders"]
    assert "ironmans-bay" not in s.orders


def test_11_9_4_loans_the_house_cannot_afford_are_not_offered(rules: Ruleset) -> None:
    s = iron_bank_order(rules, 4)
    assert prompt(s, "greyjoy").data["options"] == ["spymaster", "sea-raiders", "pass"]
    s = act(s, "greyjoy", Choose("pass"))
    assert s.power["greyjoy"] == 4
    assert market(s) == ["customs-officer", "spymaster", "sea-raiders"]


def test_11_9_4_nothing_affordable_resolves_without_a_question(rules: Ruleset) -> None:
    s = iron_bank_order(rules, 0)
    assert prompt(s, "greyjoy") is None
    assert s.power["greyjoy"] == 0
    assert "ironmans-bay" not in s.orders


def test_11_9_4_raiding_an_iron_bank_order_removes_it_without_pillage(rules: Ruleset) -> None:
    s = bank_game(rules)
    put(s, "ironmans-bay", "greyjoy", "ship")
    order(s, "ironmans-bay", "iron-bank")
    put(s, "sunset-sea", "lannister", "ship")
    order(s, "sunset-sea", "raid+0")
    s.power.update(greyjoy=3, lannister=3)
    s = run(s, OrderLoop("raid"))
    assert prompt(s, "lannister").data["raids"]["sunset-sea"]["targets"] == ["ironmans-bay"]
    s = act(s, "lannister", ResolveRaid("sunset-sea", "ironmans-bay"))
    assert "ironmans-bay" not in s.orders
    assert (s.power["greyjoy"], s.power["lannister"]) == (3, 3)


def in_debt(rules: Ruleset, power: int, blade: str = "stark") -> State:
    """Round 2 starts; Greyjoy holds two loans and ``power`` PT; ``blade`` tops Fiefdoms."""
    s = bank_game(rules)
    s.round = 2
    s.tracks["fiefdoms"] = (blade, *(h for h in s.tracks["fiefdoms"] if h != blade))
    s.ext["iron_bank_loans"] = (("greyjoy", "spymaster"), ("greyjoy", "full-host"))
    s.power["greyjoy"] = power
    put(s, "pyke", "greyjoy", "footman", "knight")
    put(s, "ironmans-bay", "greyjoy", "ship")
    return run(s, Round())


def test_11_9_5_interest_one_power_per_loan(rules: Ruleset) -> None:
    s = in_debt(rules, 3)
    assert s.power["greyjoy"] == 1
    assert all(p.kind != "iron_bank_default" for p in pending(s).values())
    assert len(s.units["pyke"]) == 2


def test_11_9_5_each_missing_power_the_blade_holder_destroys_a_unit(rules: Ruleset) -> None:
    s = in_debt(rules, 1)
    assert s.power["greyjoy"] == 0
    p = prompt(s, "stark")
    assert p.kind == "iron_bank_default"
    assert p.data["count"] == 1
    assert sorted(map(tuple, p.data["units"])) == [
        ("ironmans-bay", "ship"),
        ("pyke", "footman"),
        ("pyke", "knight"),
    ]
    s = act(s, "stark", SelectUnits((("pyke", "knight"),)))
    assert [u.type for u in s.units["pyke"]] == ["footman"]
    assert "ironmans-bay" in s.units


def test_11_9_5_a_debtor_holding_the_blade_the_next_on_fiefdoms_chooses(rules: Ruleset) -> None:
    s = in_debt(rules, 0, blade="greyjoy")
    second = s.tracks["fiefdoms"][1]
    p = prompt(s, second)
    assert p.kind == "iron_bank_default"
    assert p.data["count"] == 2
    assert prompt(s, "greyjoy") is None


def test_11_9_5_no_interest_in_round_one(rules: Ruleset) -> None:
    s = bank_game(rules)
    s.ext["iron_bank_loans"] = (("greyjoy", "spymaster"),)
    s.power["greyjoy"] = 3
    s = run(s, Round())
    assert s.power["greyjoy"] == 3


def test_11_9_2_the_braavos_holder_pays_one_less(rules: Ruleset) -> None:
    s = bank_game(rules)
    put(s, "braavos", "greyjoy", "footman")
    consequences(s)
    s.ext["iron_bank_slots"] = ("customs-officer", "spymaster", "sea-raiders")
    s.power.update(greyjoy=6, stark=6)
    assert iron_bank.affordable(s, "greyjoy") == {
        "customs-officer": 6,
        "spymaster": 3,
        "sea-raiders": 0,
    }
    assert iron_bank.affordable(s, "stark") == {"spymaster": 4, "sea-raiders": 1}
    s.units.pop("braavos")
    consequences(s)
    assert iron_bank.costs(s, "greyjoy")["spymaster"] == 3  # keeps the token while nobody holds it
    put(s, "braavos", "stark", "footman")
    consequences(s)
    assert iron_bank.costs(s, "greyjoy")["spymaster"] == 4
    assert iron_bank.costs(s, "stark")["spymaster"] == 3


def test_11_9_2_while_nobody_has_held_braavos_nobody_pays_less(rules: Ruleset) -> None:
    s = bank_game(rules)
    s.ext["iron_bank_slots"] = ("customs-officer", "spymaster", "sea-raiders")
    for house in s.houses:
        assert iron_bank.costs(s, house) == {"customs-officer": 7, "spymaster": 4, "sea-raiders": 1}
