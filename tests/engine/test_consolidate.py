"""Consolidate Power orders (RULES.md 5.6): yields on land, at sea and in ports, the starred
order's muster choice, and the 20-token cap."""

from __future__ import annotations

import random

import pytest

from tests.builders import act, blank, order, prompt, put, run
from westeros.engine.action_phase import CONSOLIDATE, OrderLoop
from westeros.engine.actions import Action, Choose
from westeros.engine.consolidate import ConsolidateTurn, ResolveConsolidate
from westeros.engine.content import Ruleset
from westeros.engine.errors import CannotMuster, IllegalAction, NotYourOrder
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.mustering import MusterIn, MusterUnit
from westeros.engine.state import State


def refused(state: State, house: str, action: Action, error: type[IllegalAction]) -> IllegalAction:
    """Apply an illegal ``action``: it raises ``error`` and the state is unchanged."""
    before = state.hash()
    with pytest.raises(error) as info:
        act(state, house, action)
    assert state.hash() == before
    return info.value


def consolidate(state: State, house: str, area: str, muster: bool = False) -> State:
    """Resolve ``house``'s Consolidate Power order in ``area`` through its turn."""
    run(state, ConsolidateTurn(house))
    assert prompt(state, house).kind == "consolidate_power"
    return act(state, house, ResolveConsolidate(area, muster))


# ---------------------------------------------------------------- 5.6.1 yields, §12.17


def test_12_17_consolidate_power_on_land_yields_one_plus_crowns(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "harrenhal", "stark", "footman")  # 1 crown
    order(s, "harrenhal", "consolidate_power+0")
    s = consolidate(s, "stark", "harrenhal")
    assert s.power["stark"] == 5 + 2
    assert s.orders == {}


def test_12_17_consolidate_power_on_land_without_crowns_yields_one(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "the-reach", "tyrell", "footman")  # no crown
    order(s, "the-reach", "consolidate_power+0")
    s = consolidate(s, "tyrell", "the-reach")
    assert s.power["tyrell"] == 5 + 1


def test_12_17_consolidate_power_in_a_sea_area_yields_nothing(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "the-golden-sound", "lannister", "ship")
    order(s, "the-golden-sound", "consolidate_power+0")
    run(s, ConsolidateTurn("lannister"))
    assert prompt(s, "lannister").data["orders"]["the-golden-sound"]["yield"] == 0
    s = act(s, "lannister", ResolveConsolidate("the-golden-sound"))
    assert s.power["lannister"] == 5
    assert s.orders == {}


def test_12_17_consolidate_power_in_a_port_yields_exactly_one(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    put(s, "port-of-lannisport", "lannister", "ship")
    order(s, "port-of-lannisport", "consolidate_power+0")
    s = consolidate(s, "lannister", "port-of-lannisport")
    assert s.power["lannister"] == 6


def test_12_17_port_yields_one_when_own_ships_hold_its_sea(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    put(s, "port-of-lannisport", "lannister", "ship")
    put(s, "the-golden-sound", "lannister", "ship")
    order(s, "port-of-lannisport", "consolidate_power+0")
    s = consolidate(s, "lannister", "port-of-lannisport")
    assert s.power["lannister"] == 6


def test_12_17_port_with_enemy_ships_in_its_sea_yields_nothing(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    put(s, "port-of-lannisport", "lannister", "ship")
    put(s, "the-golden-sound", "greyjoy", "ship")
    order(s, "port-of-lannisport", "consolidate_power+0")
    s = consolidate(s, "lannister", "port-of-lannisport")
    assert s.power["lannister"] == 5


# ---------------------------------------------------------------- 5.6.2 starred, §12.18


def test_12_18_starred_consolidate_in_stronghold_may_take_power(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "riverrun", "stark", "footman")  # stronghold, 1 crown
    order(s, "riverrun", "consolidate_power+0*")
    run(s, ConsolidateTurn("stark"))
    data = prompt(s, "stark").data["orders"]["riverrun"]
    assert data == {"token": "consolidate_power+0*", "yield": 2, "may_muster": True}
    s = act(s, "stark", ResolveConsolidate("riverrun"))
    assert s.power["stark"] == 7
    assert [u.type for u in s.units["riverrun"]] == ["footman"]
    assert not pending(s)


def test_12_18_starred_consolidate_in_stronghold_may_muster_instead(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "riverrun", "stark", "footman")
    order(s, "riverrun", "consolidate_power+0*")
    s = consolidate(s, "stark", "riverrun", muster=True)
    # Mustering replaces the power: no PT, and the order is gone.
    assert s.power["stark"] == 5
    assert s.orders == {}
    assert s.stack[-1] == MusterIn("stark", "riverrun")
    assert prompt(s, "stark").kind == "muster"
    # A stronghold gives 2 mustering points (3.5.1): a knight.
    s = act(s, "stark", MusterUnit("knight", "riverrun"))
    assert [u.type for u in s.units["riverrun"]] == ["footman", "knight"]
    assert s.power["stark"] == 5
    assert not pending(s)


def test_5_6_2_muster_happens_before_the_next_consolidate_turn(rules: Ruleset) -> None:
    s = blank(rules)
    s.tracks["iron_throne"] = ("stark", "lannister", "baratheon", "martell", "greyjoy", "tyrell")
    put(s, "riverrun", "stark", "footman")
    order(s, "riverrun", "consolidate_power+0*")
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "consolidate_power+0")
    run(s, OrderLoop(CONSOLIDATE))
    s = act(s, "stark", ResolveConsolidate("riverrun", muster=True))
    assert sorted(pending(s)) == ["stark"]
    s = act(s, "stark", Choose("done"))
    assert prompt(s, "lannister").kind == "consolidate_power"


def test_5_6_2_plain_consolidate_cannot_muster(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "riverrun", "stark", "footman")
    order(s, "riverrun", "consolidate_power+0")
    run(s, ConsolidateTurn("stark"))
    assert prompt(s, "stark").data["orders"]["riverrun"]["may_muster"] is False
    err = refused(s, "stark", ResolveConsolidate("riverrun", muster=True), CannotMuster)
    assert err.rule == "5.6.2"


def test_5_6_2_starred_consolidate_outside_a_castle_area_only_yields(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "stoney-sept", "lannister", "footman")  # no castle, 1 crown
    order(s, "stoney-sept", "consolidate_power+0*")
    run(s, ConsolidateTurn("lannister"))
    refused(s, "lannister", ResolveConsolidate("stoney-sept", muster=True), CannotMuster)
    s = act(s, "lannister", ResolveConsolidate("stoney-sept"))
    assert s.power["lannister"] == 7


def test_6_2_2_starred_consolidate_in_a_port_cannot_muster(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    put(s, "port-of-lannisport", "lannister", "ship")
    order(s, "port-of-lannisport", "consolidate_power+0*")
    run(s, ConsolidateTurn("lannister"))
    refused(s, "lannister", ResolveConsolidate("port-of-lannisport", muster=True), CannotMuster)
    s = act(s, "lannister", ResolveConsolidate("port-of-lannisport"))
    assert s.power["lannister"] == 6


# ---------------------------------------------------------------- 1.5.2 cap, §12.42


def test_12_42_gain_is_capped_at_20_including_board_tokens(rules: Ruleset) -> None:
    s = blank(rules)
    s.power["baratheon"] = 18
    s.power_tokens["the-boneway"] = "baratheon"
    s.power_tokens["the-reach"] = "baratheon"
    put(s, "kings-landing", "baratheon", "footman")  # 2 crowns: yields 3
    order(s, "kings-landing", "consolidate_power+0")
    s = consolidate(s, "baratheon", "kings-landing")
    assert s.power["baratheon"] == 18


def test_12_42_gain_fills_up_to_20(rules: Ruleset) -> None:
    s = blank(rules)
    s.power["baratheon"] = 19
    put(s, "kings-landing", "baratheon", "footman")
    order(s, "kings-landing", "consolidate_power+0")
    s = consolidate(s, "baratheon", "kings-landing")
    assert s.power["baratheon"] == 20


# ---------------------------------------------------------------- ownership, random play


def test_5_6_only_own_consolidate_orders_can_be_resolved(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "harrenhal", "stark", "footman")
    order(s, "harrenhal", "consolidate_power+0")
    put(s, "riverrun", "stark", "footman")
    order(s, "riverrun", "support+0")
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "consolidate_power+0")
    run(s, ConsolidateTurn("stark"))
    assert refused(s, "stark", ResolveConsolidate("riverrun"), NotYourOrder).rule == "5.6"
    refused(s, "stark", ResolveConsolidate("lannisport"), NotYourOrder)
    refused(s, "stark", ResolveConsolidate("winterfell"), NotYourOrder)


@pytest.mark.parametrize("seed", range(20))
def test_5_6_random_consolidate_is_legal(rules: Ruleset, seed: int) -> None:
    rnd = random.Random(seed)
    s = blank(rules)
    for area, token in (
        ("riverrun", "consolidate_power+0*"),
        ("harrenhal", "consolidate_power+0"),
        ("bay-of-ice", "consolidate_power+0.2"),
    ):
        put(s, area, "stark", "ship" if area == "bay-of-ice" else "footman")
        order(s, area, token)
    run(s, OrderLoop(CONSOLIDATE))
    while pending(s):
        house = sorted(pending(s))[0]
        s, _ = apply(s, house, random_action(s, house, rnd))
    assert s.orders == {}
    assert 5 <= s.power["stark"] <= 5 + 2 + 2
