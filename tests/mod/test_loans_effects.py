"""Each of the 12 loan cards of the Iron Bank (RULES.md 11.9.6), bought by Greyjoy from the
1-cost slot with its Iron Bank order in Ironman's Bay. Area facts are the printed board's:
Pyke 1 crown, 1 barrel, a stronghold; Flint's Finger and Harrenhal castles; Greywater Watch
1 barrel, no castle."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.builders import act, order, prompt, put, run
from westeros.engine import board
from westeros.engine.action_phase import OrderLoop
from westeros.engine.actions import Choose
from westeros.engine.consolidate import ResolveConsolidate
from westeros.engine.content import Ruleset
from westeros.engine.encoding import decode_state, encode_state
from westeros.engine.mustering import MusterIn
from westeros.engine.state import State
from westeros.engine.supply import update_supply
from westeros.engine.view import player_view
from westeros.plugins import build_ruleset

from .test_iron_bank_market import bank_game
from .test_sea_orders_placement import BOTH

POWER = 5
PRICE = 1  # the 1-cost slot (11.9.1)


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(BOTH)


def buy(rules: Ruleset, loan: str, arrange: Callable[[State], None] | None = None) -> State:
    """Greyjoy (a ship in Ironman's Bay with the Iron Bank order, a footman in Pyke, supply 6)
    buys ``loan``; ``arrange`` sets the board up first."""
    s = bank_game(rules)
    put(s, "ironmans-bay", "greyjoy", "ship")
    put(s, "pyke", "greyjoy", "footman")
    order(s, "ironmans-bay", "iron-bank")
    s.power["greyjoy"] = POWER
    s.supply["greyjoy"] = 6
    s.ext["iron_bank_slots"] = ("", "", loan)
    if arrange:
        arrange(s)
    s = run(s, OrderLoop("consolidate_power"))
    s = act(s, "greyjoy", ResolveConsolidate("ironmans-bay"))
    return act(s, "greyjoy", Choose(loan))


def options(s: State) -> list[str]:
    return list(prompt(s, "greyjoy").data["options"])


def consolidate_yield_in(s: State, area: str) -> int:
    """What a Consolidate Power order of Greyjoy in ``area`` would yield, as its prompt says."""
    s = s.copy()
    s.stack = ()
    order(s, area, "consolidate_power+0")
    s = run(s, OrderLoop("consolidate_power"))
    return int(prompt(s, "greyjoy").data["orders"][area]["yield"])


def test_11_9_6_customs_officer(rules: Ruleset) -> None:
    s = buy(rules, "customs-officer")
    assert s.power["greyjoy"] == POWER - PRICE + 10
    assert prompt(s, "greyjoy") is None


def test_11_9_6_expert_artificer(rules: Ruleset) -> None:
    s = buy(rules, "expert-artificer")
    assert s.power["greyjoy"] == POWER - PRICE + 8
    assert "pyke" in options(s) and "ironmans-bay" not in options(s)  # land areas only
    assert consolidate_yield_in(s, "pyke") == 1 + 1
    s = act(s, "greyjoy", Choose("pyke"))
    assert consolidate_yield_in(s, "pyke") == 1 + 1 + 1  # the power improvement's crown
    again = decode_state(encode_state(s), rules)  # for good, saved games included
    assert consolidate_yield_in(again, "pyke") == 3
    assert rules.areas["pyke"].crowns == 1  # other games are unchanged
    assert ["pyke", "crown"] in [
        list(p) for p in player_view(s, "stark")["ext"]["area_improvements"]
    ]


def test_11_9_6_loyal_maester(rules: Ruleset) -> None:
    s = buy(rules, "loyal-maester", lambda s: put(s, "greywater-watch", "greyjoy", "footman"))
    update_supply(s)
    before = s.supply["greyjoy"]
    s = act(s, "greyjoy", Choose("pyke"))
    assert "pyke" not in options(s)  # two different areas
    s = act(s, "greyjoy", Choose("greywater-watch"))
    assert prompt(s, "greyjoy") is None
    update_supply(s)
    assert s.supply["greyjoy"] == min(6, before + 2)


def test_11_9_6_savvy_steward(rules: Ruleset) -> None:
    s = bank_game(rules)
    s = buy(rules, "savvy-steward", lambda s: s.supply.update(greyjoy=2))
    assert s.supply["greyjoy"] == 3  # at once, one position up
    s = act(s, "greyjoy", Choose("greywater-watch"))
    assert ["greywater-watch", "barrel"] in [list(p) for p in s.ext["area_improvements"]]


def test_11_9_6_savvy_steward_supply_stops_at_six(rules: Ruleset) -> None:
    s = buy(rules, "savvy-steward")
    assert s.supply["greyjoy"] == 6


def test_11_9_6_master_at_arms(rules: Ruleset) -> None:
    s = buy(rules, "master-at-arms", lambda s: put(s, "flints-finger", "greyjoy", "footman"))
    assert "flints-finger" in options(s) and "harrenhal" in options(s)
    assert "pyke" not in options(s)  # already a stronghold (S&R: castles only)
    s = act(s, "greyjoy", Choose("flints-finger"))
    assert "flints-finger" not in options(s)
    s = act(s, "greyjoy", Choose("harrenhal"))
    assert MusterIn("greyjoy", "flints-finger").left(s) == 2  # stronghold mustering points
    assert board.castle_count(s, "greyjoy") == 2  # still one castle area each (victory)


def test_11_9_6_pyromancer(rules: Ruleset) -> None:
    s = buy(rules, "pyromancer", lambda s: put(s, "flints-finger", "greyjoy", "footman"))
    assert board.castle_count(s, "greyjoy") == 2
    s = act(s, "greyjoy", Choose("flints-finger"))
    assert options(s) == ["crown", "barrel"]
    assert board.castle_count(s, "greyjoy") == 1  # no victory value any more
    s = act(s, "greyjoy", Choose("barrel"))
    update_supply(s)
    assert "flints-finger" not in s.rules.castle_areas  # no mustering there
    assert board.barrels(s, "greyjoy") == 1 + 1


def place_all(s: State, where: dict[str, str]) -> State:
    """Answer every unit placement of a loan with ``where[unit]``."""
    while (p := prompt(s, "greyjoy")) is not None and p.kind == "loan_unit":
        s = act(s, "greyjoy", Choose(where[p.data["unit"]]))
    return s


def test_11_9_6_full_host(rules: Ruleset) -> None:
    s = buy(rules, "full-host")
    p = prompt(s, "greyjoy")
    assert (p.kind, p.data["unit"], options(s)) == ("loan_unit", "footman", ["pyke", "pass"])
    s = place_all(
        s, {"footman": "pyke", "knight": "pyke", "siege_engine": "pyke", "ship": "port-of-pyke"}
    )
    assert sorted(u.type for u in s.units["pyke"]) == [
        "footman",
        "footman",
        "knight",
        "siege_engine",
    ]
    assert [u.type for u in s.units["port-of-pyke"]] == ["ship"]


def test_11_9_6_full_host_ship_goes_to_a_sea_area_or_port_held(rules: Ruleset) -> None:
    s = buy(rules, "full-host")
    s = place_all(s, {"footman": "pyke", "knight": "pyke", "siege_engine": "pass", "ship": "pass"})
    s = buy(rules, "full-host")
    for _ in range(3):
        s = act(s, "greyjoy", Choose("pass"))
    assert prompt(s, "greyjoy").data["unit"] == "ship"
    assert options(s) == ["ironmans-bay", "port-of-pyke", "pass"]


def test_11_9_6_sea_raiders(rules: Ruleset) -> None:
    s = buy(rules, "sea-raiders")
    s = place_all(s, {"footman": "pyke", "ship": "ironmans-bay"})
    assert len(s.units["ironmans-bay"]) == 1 + 3
    assert len(s.units["pyke"]) == 2


def test_11_9_6_siege_engineers(rules: Ruleset) -> None:
    s = buy(rules, "siege-engineers")
    s = place_all(s, {"footman": "pyke", "siege_engine": "pyke"})
    assert sorted(u.type for u in s.units["pyke"]) == [
        "footman",
        "footman",
        "siege_engine",
        "siege_engine",
    ]


def test_11_9_6_vanguard_cavalry_and_an_empty_pool(rules: Ruleset) -> None:
    s = buy(rules, "vanguard-cavalry", lambda s: put(s, "seagard", "greyjoy", *["knight"] * 4))
    s = place_all(s, {"knight": "pyke"})
    assert [u.type for u in s.units["pyke"]] == ["footman", "knight"]  # only 5 knights (1.2.2)
    assert prompt(s, "greyjoy") is None


def test_11_9_6_units_respect_supply(rules: Ruleset) -> None:
    s = buy(rules, "vanguard-cavalry", lambda s: s.supply.update(greyjoy=0))
    # Supply 0 allows armies of 2 at most (1.7.3): one knight joins the footman in Pyke.
    s = place_all(s, {"knight": "pyke"})
    assert len(s.units["pyke"]) == 2


def test_11_9_6_spymaster(rules: Ruleset) -> None:
    s = buy(rules, "spymaster")
    assert options(s) == ["westeros-1", "westeros-2", "westeros-3"]
    top = s.westeros_decks[1][:2]
    s = act(s, "greyjoy", Choose("westeros-2"))
    p = prompt(s, "greyjoy")
    assert p.kind == "spymaster" and tuple(p.data["cards"]) == top
    assert "cards" not in str(player_view(s, "stark")["prompt"])
    size = len(s.westeros_decks[1])
    s = act(s, "greyjoy", Choose("bottom_1"))
    deck = s.westeros_decks[1]
    assert (deck[0], deck[-1], len(deck)) == (top[1], top[0], size)


def test_11_9_6_spymaster_both_back_on_top_reordered(rules: Ruleset) -> None:
    s = act(buy(rules, "spymaster"), "greyjoy", Choose("westeros-1"))
    top = s.westeros_decks[0][:2]
    s = act(s, "greyjoy", Choose("top_21"))
    assert s.westeros_decks[0][:2] == (top[1], top[0])


def test_11_9_6_the_faceless_men(rules: Ruleset) -> None:
    def arrange(s: State) -> None:
        put(s, "riverrun", "stark", "knight", "footman")
        put(s, "harrenhal", "lannister", "footman")

    s = buy(rules, "the-faceless-men", arrange)
    assert options(s) == ["riverrun"]
    s = act(s, "greyjoy", Choose("riverrun"))
    assert options(s) == ["harrenhal", "pyke"]  # a footman in another area, any house
    s = act(s, "greyjoy", Choose("harrenhal"))
    assert [u.type for u in s.units["riverrun"]] == ["footman"]
    assert "harrenhal" not in s.units
