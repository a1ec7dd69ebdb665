"""Mustering (RULES.md 3.4.4, 3.5) and §12.19-12.20."""

from __future__ import annotations

import random

import pytest

from westeros.engine.actions import Choose, SelectArea
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalAction, IllegalChoice, SupplyExceeded, UnitUnavailable
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.mustering import MusterHouse, MusterIn, MusteringAll, MusterUnit
from westeros.engine.state import State

from ..builders import act, blank, prompt, put, run


def types(s: State, area: str) -> list[str]:
    return sorted(u.type for u in s.units.get(area, ()))


def recruits(s: State, house: str) -> dict[str, list[str]]:
    """Unit type -> areas it may be mustered into, from the prompt."""
    return {r["unit"]: r["areas"] for r in prompt(s, house).data["recruits"]}


def refused(s: State, house: str, action: MusterUnit, error: type[IllegalAction]) -> str:
    """Assert ``action`` raises ``error`` and leaves the state unchanged; return its rule."""
    before = s.hash()
    with pytest.raises(error) as err:
        apply(s, house, action)
    assert s.hash() == before
    return err.value.rule


def test_3_5_1_stronghold_two_points_castle_one(rules: Ruleset) -> None:
    s = run(blank(rules), MusterIn("stark", "winterfell"))
    assert prompt(s, "stark").data["points"] == 2
    s = run(blank(rules), MusterIn("stark", "white-harbor"))
    assert prompt(s, "stark").data["points"] == 1


def test_3_4_4_each_house_musters_in_every_castle_area_it_controls(rules: Ruleset) -> None:
    s = blank(rules)
    s.power_tokens["white-harbor"] = "stark"  # 3.5.1: a power token is enough
    put(s, "moat-cailin", "stark", "footman")
    put(s, "karhold", "stark", "footman")  # no castle
    run(s, MusteringAll())
    areas = []
    while pending(s):
        (house,) = pending(s)
        asked = prompt(s, house)
        if asked.kind == "choose_muster_area":  # 3.5.1: any order; here the listed one
            s = act(s, house, SelectArea(asked.data["areas"][0]))
            continue
        if house == "stark":
            areas.append(asked.data["area"])
        s = act(s, house, Choose("done"))
    assert areas == ["moat-cailin", "white-harbor", "winterfell"]


def test_3_4_4_mustering_follows_turn_order(rules: Ruleset) -> None:
    s = run(blank(rules), MusteringAll())
    seen = []
    while pending(s):
        (house,) = pending(s)
        seen.append(house)
        s = act(s, house, Choose("done"))
    assert seen == list(s.tracks["iron_throne"])


def test_3_5_2_new_knight_uses_both_stronghold_points(rules: Ruleset) -> None:
    s = run(blank(rules), MusterIn("stark", "winterfell"))
    s = act(s, "stark", MusterUnit("knight", "winterfell"))
    assert types(s, "winterfell") == ["knight"]
    assert not pending(s)


def test_3_5_2_castle_cannot_afford_a_knight(rules: Ruleset) -> None:
    s = run(blank(rules), MusterIn("stark", "white-harbor"))
    assert "knight" not in recruits(s, "stark")
    rule = refused(s, "stark", MusterUnit("knight", "white-harbor"), IllegalChoice)
    assert rule == "3.5.2"


def test_3_5_2_upgrade_costs_one_and_leaves_a_point(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman")
    run(s, MusterIn("stark", "winterfell"))
    s = act(s, "stark", MusterUnit("siege_engine", "winterfell", "footman"))
    assert types(s, "winterfell") == ["siege_engine"]
    assert prompt(s, "stark").data["points"] == 1
    s = act(s, "stark", MusterUnit("footman", "winterfell"))
    assert types(s, "winterfell") == ["footman", "siege_engine"]
    assert not pending(s)


def test_3_5_4_footman_mustered_now_cannot_be_upgraded(rules: Ruleset) -> None:
    s = run(blank(rules), MusterIn("stark", "winterfell"))
    s = act(s, "stark", MusterUnit("footman", "winterfell"))
    assert prompt(s, "stark").data["upgrades"] == []
    rule = refused(s, "stark", MusterUnit("knight", "winterfell", "footman"), IllegalChoice)
    assert rule == "3.5.4"


def test_3_5_6_points_may_be_left_unused(rules: Ruleset) -> None:
    s = run(blank(rules), MusterIn("stark", "winterfell"))
    s = act(s, "stark", MusterUnit("footman", "winterfell"))
    s = act(s, "stark", Choose("done"))
    assert types(s, "winterfell") == ["footman"]
    assert not s.stack


def test_3_5_3_ship_into_an_adjacent_free_or_own_sea(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "the-shivering-sea", "stark", "ship")
    put(s, "the-narrow-sea", "baratheon", "ship")
    run(s, MusterIn("stark", "white-harbor"))
    assert recruits(s, "stark")["ship"] == ["port-of-white-harbor", "the-shivering-sea"]
    s = act(s, "stark", MusterUnit("ship", "the-shivering-sea"))
    assert types(s, "the-shivering-sea") == ["ship", "ship"]


def test_12_19_no_ship_into_enemy_sea_but_into_own_port(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "bay-of-ice", "greyjoy", "ship")
    run(s, MusterIn("stark", "winterfell"))
    assert "bay-of-ice" not in recruits(s, "stark")["ship"]
    rule = refused(s, "stark", MusterUnit("ship", "bay-of-ice"), IllegalChoice)
    assert rule == "3.5.3"
    s = act(s, "stark", MusterUnit("ship", "port-of-winterfell"))
    assert types(s, "port-of-winterfell") == ["ship"]


def test_6_1_3_port_holds_at_most_three_ships(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "port-of-winterfell", "stark", "ship", "ship", "ship")
    s.supply["stark"] = 6
    run(s, MusterIn("stark", "winterfell"))
    assert "port-of-winterfell" not in recruits(s, "stark")["ship"]
    refused(s, "stark", MusterUnit("ship", "port-of-winterfell"), IllegalChoice)


def test_12_20_supply_blocks_new_units_but_not_upgrades(rules: Ruleset) -> None:
    s = blank(rules)
    s.supply["stark"] = 0  # limits 2-2
    put(s, "winterfell", "stark", "footman", "footman")
    put(s, "white-harbor", "stark", "footman", "footman")
    run(s, MusterIn("stark", "winterfell"))
    assert set(recruits(s, "stark")) == {"ship"}  # a lone ship is no army
    refused(s, "stark", MusterUnit("footman", "winterfell"), SupplyExceeded)
    s = act(s, "stark", MusterUnit("knight", "winterfell", "footman"))
    assert types(s, "winterfell") == ["footman", "knight"]


def test_3_5_5_supply_is_checked_after_each_recruit(rules: Ruleset) -> None:
    s = blank(rules)
    s.supply["stark"] = 0  # limits 2-2
    put(s, "winterfell", "stark", "footman")
    run(s, MusterIn("stark", "winterfell"))
    s = act(s, "stark", MusterUnit("footman", "winterfell"))
    assert "footman" not in recruits(s, "stark")
    refused(s, "stark", MusterUnit("footman", "winterfell"), SupplyExceeded)


def test_1_2_2_unavailable_units_cannot_be_mustered(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman")
    for area in ("karhold", "castle-black", "the-stony-shore", "moat-cailin", "white-harbor"):
        put(s, area, "stark", "knight")  # all 5 knights on the board
    run(s, MusterIn("stark", "winterfell"))
    assert "knight" not in recruits(s, "stark")
    assert all(u["to"] != "knight" for u in prompt(s, "stark").data["upgrades"])
    refused(s, "stark", MusterUnit("knight", "winterfell"), UnitUnavailable)
    refused(s, "stark", MusterUnit("knight", "winterfell", "footman"), UnitUnavailable)


def test_3_5_3_land_units_only_in_the_mustering_area(rules: Ruleset) -> None:
    s = run(blank(rules), MusterIn("stark", "winterfell"))
    assert recruits(s, "stark")["footman"] == ["winterfell"]
    refused(s, "stark", MusterUnit("footman", "karhold"), IllegalChoice)
    refused(s, "stark", MusterUnit("footman", "winterfell", "ship"), IllegalChoice)
    refused(s, "stark", MusterUnit("dragon", "winterfell"), IllegalChoice)


def test_3_5_random_mustering_is_always_legal(rules: Ruleset) -> None:
    rnd = random.Random(3)
    for seed in range(30):
        s = blank(rules, 3 + seed % 4, seed, keep_units=True)
        run(s, MusteringAll())
        while pending(s):
            (house,) = pending(s)
            step = s.stack[-1]
            if isinstance(step, MusterIn):
                legal = step.legal_actions(s)
                assert legal == [c for c in step.candidates(s) if step.problem(s, c) is None]
            s, _ = apply(s, house, random_action(s, house, rnd))
        assert not s.stack


def two_open_areas(rules: Ruleset) -> State:
    """Stark musters (3.4.4) with White Harbor (castle) and Winterfell (stronghold) open;
    White Harbor is asked first (the areas are queued by name)."""
    s = blank(rules)
    put(s, "white-harbor", "stark", "footman")
    s = run(s, MusterHouse("stark"))
    assert prompt(s, "stark").data["area"] == "white-harbor"
    return s


def test_3_5_1_the_house_may_muster_in_any_area_first(rules: Ruleset) -> None:
    s = two_open_areas(rules)
    assert prompt(s, "stark").data["other_areas"] == ["winterfell"]
    s = act(s, "stark", SelectArea("winterfell"))
    asked = prompt(s, "stark")
    assert (asked.data["area"], asked.data["points"]) == ("winterfell", 2)
    assert asked.data["other_areas"] == ["white-harbor"]
    s = act(s, "stark", MusterUnit("knight", "winterfell"))
    assert types(s, "winterfell") == ["knight"]
    # White Harbor kept its point and musters next
    asked = prompt(s, "stark")
    assert (asked.data["area"], asked.data["points"], asked.data["other_areas"]) == (
        "white-harbor",
        1,
        [],
    )
    s = act(s, "stark", MusterUnit("footman", "white-harbor"))
    assert types(s, "white-harbor") == ["footman", "footman"]
    assert not pending(s)


def test_3_5_1_the_order_decides_where_the_last_knight_goes(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "white-harbor", "stark", "footman")
    limit = rules.houses["stark"].unit_limits["knight"]
    for area in ("karhold", "the-stony-shore", "castle-black", "widows-watch")[: limit - 1]:
        put(s, area, "stark", "knight")
    s = run(s, MusterHouse("stark"))
    s = act(s, "stark", SelectArea("winterfell"))
    s = act(s, "stark", MusterUnit("knight", "winterfell"))
    # the pool's last knight went to Winterfell: White Harbor can no longer upgrade to one
    asked = prompt(s, "stark")
    assert asked.data["area"] == "white-harbor"
    assert all(u["to"] != "knight" for u in asked.data["upgrades"])


def test_3_5_1_refuses_an_area_that_is_not_queued(rules: Ruleset) -> None:
    s = two_open_areas(rules)
    before = s.hash()
    with pytest.raises(IllegalChoice) as err:
        apply(s, "stark", SelectArea("karhold"))
    assert err.value.rule == "3.5.1" and s.hash() == before
