"""Raid orders (RULES.md 5.2): targets by area kind and order type, pillage, no target."""

from __future__ import annotations

import random

import pytest

from tests.builders import act, blank, order, prompt, put, run
from westeros.engine.action_phase import RAID, OrderLoop
from westeros.engine.actions import Action
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalAction, IllegalTarget, NotYourOrder
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.raid import RaidTurn, ResolveRaid
from westeros.engine.state import Order, State


def refused(state: State, house: str, action: Action, error: type[IllegalAction]) -> IllegalAction:
    """Apply an illegal ``action``: it raises ``error`` and the state is unchanged."""
    before = state.hash()
    with pytest.raises(error) as info:
        act(state, house, action)
    assert state.hash() == before
    return info.value


def raid_turn(state: State, house: str) -> State:
    """Queue ``house``'s raid turn and wait for its decision."""
    run(state, RaidTurn(house))
    assert prompt(state, house).kind == "raid"
    return state


# ---------------------------------------------------------------- 5.2.1 targets by area kind


def test_12_14_land_raid_cannot_target_a_sea_area(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "raid+0")
    put(s, "the-golden-sound", "greyjoy", "ship")
    order(s, "the-golden-sound", "support+0")
    raid_turn(s, "lannister")
    assert prompt(s, "lannister").data["raids"]["lannisport"]["targets"] == []
    err = refused(s, "lannister", ResolveRaid("lannisport", "the-golden-sound"), IllegalTarget)
    assert err.rule == "5.2.1"


def test_12_14_sea_raid_may_target_an_adjacent_land_area(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "the-golden-sound", "greyjoy", "ship")
    order(s, "the-golden-sound", "raid+0")
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "support+0")
    raid_turn(s, "greyjoy")
    assert prompt(s, "greyjoy").data["raids"]["the-golden-sound"]["targets"] == ["lannisport"]
    s = act(s, "greyjoy", ResolveRaid("the-golden-sound", "lannisport"))
    assert s.orders == {}


def test_5_2_1_sea_raid_may_target_an_adjacent_sea_area(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "the-golden-sound", "greyjoy", "ship")
    order(s, "the-golden-sound", "raid+0")
    put(s, "sunset-sea", "lannister", "ship")
    order(s, "sunset-sea", "raid+0.2")
    raid_turn(s, "greyjoy")
    s = act(s, "greyjoy", ResolveRaid("the-golden-sound", "sunset-sea"))
    assert s.orders == {}


def test_5_2_1_land_raid_may_target_an_adjacent_land_area(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "raid+0")
    put(s, "riverrun", "stark", "footman")
    order(s, "riverrun", "support+0")
    raid_turn(s, "lannister")
    s = act(s, "lannister", ResolveRaid("lannisport", "riverrun"))
    assert s.orders == {}


def test_5_2_1_raid_target_must_be_adjacent(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "raid+0")
    put(s, "harrenhal", "stark", "footman")
    order(s, "harrenhal", "support+0")
    raid_turn(s, "lannister")
    refused(s, "lannister", ResolveRaid("lannisport", "harrenhal"), IllegalTarget)


def test_5_2_1_raid_cannot_target_own_order(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "raid+0")
    put(s, "stoney-sept", "lannister", "footman")
    order(s, "stoney-sept", "support+0")
    raid_turn(s, "lannister")
    refused(s, "lannister", ResolveRaid("lannisport", "stoney-sept"), IllegalTarget)


def test_6_2_1_port_raid_targets_only_its_sea_area(rules: Ruleset) -> None:
    """Port of Pyke touches Pyke and Ironman's Bay. Stark units stand in Pyke only to show
    that the port may not raid its land area even when it holds an enemy order."""
    s = blank(rules)
    put(s, "port-of-pyke", "greyjoy", "ship")
    order(s, "port-of-pyke", "raid+0*")
    put(s, "pyke", "stark", "footman")
    order(s, "pyke", "consolidate_power+0")
    put(s, "ironmans-bay", "lannister", "ship")
    order(s, "ironmans-bay", "support+0")
    raid_turn(s, "greyjoy")
    assert prompt(s, "greyjoy").data["raids"]["port-of-pyke"]["targets"] == ["ironmans-bay"]
    refused(s, "greyjoy", ResolveRaid("port-of-pyke", "pyke"), IllegalTarget)
    s = act(s, "greyjoy", ResolveRaid("port-of-pyke", "ironmans-bay"))
    assert s.orders == {"pyke": Order("stark", "consolidate_power+0")}


def test_6_2_1_ship_in_the_sea_may_raid_the_port(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "dragonstone", "baratheon", "footman")
    put(s, "port-of-dragonstone", "baratheon", "ship")
    order(s, "port-of-dragonstone", "consolidate_power+0")
    put(s, "shipbreaker-bay", "greyjoy", "ship")
    order(s, "shipbreaker-bay", "raid+0")
    raid_turn(s, "greyjoy")
    targets = prompt(s, "greyjoy").data["raids"]["shipbreaker-bay"]["targets"]
    assert targets == ["port-of-dragonstone"]
    s = act(s, "greyjoy", ResolveRaid("shipbreaker-bay", "port-of-dragonstone"))
    assert s.orders == {}
    # 5.2.4: a Consolidate Power order in a port is pillaged like any other.
    assert s.power["greyjoy"] == 6
    assert s.power["baratheon"] == 4


# ---------------------------------------------------------------- 5.2.1 targets by order type


def test_12_15_plain_raid_cannot_remove_a_defense_order(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "raid+0")
    put(s, "riverrun", "stark", "footman")
    order(s, "riverrun", "defense+1")
    raid_turn(s, "lannister")
    err = refused(s, "lannister", ResolveRaid("lannisport", "riverrun"), IllegalTarget)
    assert err.rule == "5.2.1"


def test_12_15_starred_raid_may_remove_a_defense_order(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "raid+0*")
    put(s, "riverrun", "stark", "footman")
    order(s, "riverrun", "defense+2*")
    raid_turn(s, "lannister")
    s = act(s, "lannister", ResolveRaid("lannisport", "riverrun"))
    assert s.orders == {}


@pytest.mark.parametrize("raid", ["raid+0", "raid+0*"])
def test_12_15_no_raid_may_remove_a_march_order(rules: Ruleset, raid: str) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", raid)
    put(s, "riverrun", "stark", "footman")
    order(s, "riverrun", "march-1")
    raid_turn(s, "lannister")
    refused(s, "lannister", ResolveRaid("lannisport", "riverrun"), IllegalTarget)


@pytest.mark.parametrize("target", ["support+1*", "raid+0.2", "consolidate_power+0*"])
def test_5_2_1_plain_raid_removes_support_raid_and_consolidate(rules: Ruleset, target: str) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "raid+0")
    put(s, "riverrun", "stark", "footman")
    order(s, "riverrun", target)
    raid_turn(s, "lannister")
    s = act(s, "lannister", ResolveRaid("lannisport", "riverrun"))
    assert s.orders == {}


# ---------------------------------------------------------------- 5.2.4 pillage


def test_12_16_raiding_consolidate_power_pillages(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "raid+0")
    put(s, "riverrun", "stark", "footman")
    order(s, "riverrun", "consolidate_power+0")
    raid_turn(s, "lannister")
    s, events = apply(s, "lannister", ResolveRaid("lannisport", "riverrun"))
    assert s.power["lannister"] == 6
    assert s.power["stark"] == 4
    assert s.orders == {}
    (raid,) = [e for e in events if e.kind == "raid"]
    assert raid.data["removed"] == "consolidate_power+0"


def test_12_16_pillaged_house_without_power_loses_nothing(rules: Ruleset) -> None:
    s = blank(rules)
    s.power["stark"] = 0
    put(s, "the-golden-sound", "lannister", "ship")
    order(s, "the-golden-sound", "raid+0")
    put(s, "sunset-sea", "stark", "ship")
    order(s, "sunset-sea", "consolidate_power+0*")
    raid_turn(s, "lannister")
    s = act(s, "lannister", ResolveRaid("the-golden-sound", "sunset-sea"))
    assert s.power["lannister"] == 6
    assert s.power["stark"] == 0


def test_5_2_4_raiding_support_gains_no_power(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "raid+0")
    put(s, "riverrun", "stark", "footman")
    order(s, "riverrun", "support+0")
    raid_turn(s, "lannister")
    s = act(s, "lannister", ResolveRaid("lannisport", "riverrun"))
    assert s.power["lannister"] == 5
    assert s.power["stark"] == 5


# ---------------------------------------------------------------- 5.2.2 no target, ownership


def test_5_2_2_raid_without_target_is_just_removed(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "raid+0")
    put(s, "riverrun", "stark", "footman")
    order(s, "riverrun", "consolidate_power+0")
    raid_turn(s, "lannister")
    s = act(s, "lannister", ResolveRaid("lannisport", None))
    assert s.orders == {"riverrun": Order("stark", "consolidate_power+0")}
    assert s.power == {h: 5 for h in s.houses}
    assert not pending(s)


def test_5_2_raid_must_be_an_own_raid_order(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "raid+0")
    put(s, "stoney-sept", "lannister", "footman")
    order(s, "stoney-sept", "support+0")
    put(s, "riverrun", "stark", "footman")
    order(s, "riverrun", "raid+0")
    raid_turn(s, "lannister")
    refused(s, "lannister", ResolveRaid("stoney-sept", None), NotYourOrder)
    refused(s, "lannister", ResolveRaid("riverrun", None), NotYourOrder)
    refused(s, "lannister", ResolveRaid("harrenhal", None), NotYourOrder)


def test_5_1_raid_loop_follows_turn_order(rules: Ruleset) -> None:
    s = blank(rules)
    s.tracks["iron_throne"] = ("stark", "lannister", "baratheon", "martell", "greyjoy", "tyrell")
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "raid+0")
    put(s, "riverrun", "stark", "footman")
    order(s, "riverrun", "raid+0")
    run(s, OrderLoop(RAID))
    assert sorted(pending(s)) == ["stark"]
    s = act(s, "stark", ResolveRaid("riverrun", "lannisport"))
    # Stark's raid removed Lannister's raid: it is never resolved (5.2.3).
    assert s.orders == {}
    assert not pending(s)


@pytest.mark.parametrize("seed", range(20))
def test_5_2_random_raid_is_legal(rules: Ruleset, seed: int) -> None:
    rnd = random.Random(seed)
    s = blank(rules)
    put(s, "the-golden-sound", "lannister", "ship")
    order(s, "the-golden-sound", "raid+0*")
    put(s, "lannisport", "lannister", "footman")
    order(s, "lannisport", "raid+0")
    for area, token in (("riverrun", "defense+1"), ("stoney-sept", "march+0")):
        put(s, area, "stark", "footman")
        order(s, area, token)
    put(s, "ironmans-bay", "greyjoy", "ship")
    order(s, "ironmans-bay", "consolidate_power+0")
    run(s, OrderLoop(RAID))
    while pending(s):
        house = sorted(pending(s))[0]
        s, _ = apply(s, house, random_action(s, house, rnd))
    # Raids are gone; a March order is never removed.
    assert "stoney-sept" in s.orders
    assert not any(o.token.startswith("raid") for o in s.orders.values())
