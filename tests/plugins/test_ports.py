"""Ports (RULES.md 6) as the bundled plugin westeros_ports: take-over and orphaned ships after a
resolution (6.3), mustering into a castle's own port (6.2.4), Game of Thrones income (6.2.3),
and a game that plays with and without the plugin."""

from __future__ import annotations

import random

import pytest

from tests.builders import act, blank, order, prompt, put, run
from westeros.base.westeros_cards import game_of_thrones
from westeros.engine.actions import Choose
from westeros.engine.combat import start_combat
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalChoice
from westeros.engine.flow import advance, apply, pending, random_action
from westeros.engine.march import MarchTurn, ResolveMarch
from westeros.engine.mustering import MusterIn, MusterUnit
from westeros.engine.setup import new_game
from westeros.engine.state import State, Unit
from westeros.engine.victory import consequences
from westeros_ports.rules import IllegalTakeover, TakeOverShips

from .play import play_for

SHIP = Unit("baratheon", "ship")


def settle(state: State) -> State:
    """Run the consequence checks (Appendix A.3) as the engine does after a resolution."""
    consequences(state)
    advance(state)
    return state


def conquered_oldtown(rules: Ruleset, tyrell_ships: int = 2) -> State:
    """Baratheon has just taken Oldtown; Tyrell's ships still lie in the Port of Oldtown."""
    s = blank(rules)
    put(s, "port-of-oldtown", "tyrell", *["ship"] * tyrell_ships)
    order(s, "port-of-oldtown", "raid+0")
    put(s, "oldtown", "baratheon", "footman")
    s.supply["baratheon"] = 2
    return s


def test_12_38_conqueror_replaces_the_old_ships_with_its_own(rules: Ruleset) -> None:
    s = settle(conquered_oldtown(rules, 2))
    assert "port-of-oldtown" not in s.units
    p = prompt(s, "baratheon")
    assert p.kind == "port_takeover"
    assert (p.data["port"], p.data["min"], p.data["max"]) == ("port-of-oldtown", 0, 2)
    s = act(s, "baratheon", TakeOverShips(2))
    assert s.units["port-of-oldtown"] == (SHIP, SHIP)
    assert prompt(s, "baratheon") is None


def test_6_3_1_orders_on_the_port_are_removed(rules: Ruleset) -> None:
    s = settle(conquered_oldtown(rules))
    assert "port-of-oldtown" not in s.orders
    s = act(s, "baratheon", TakeOverShips(1))
    assert s.units["port-of-oldtown"] == (SHIP,)
    assert "port-of-oldtown" not in s.orders


def test_6_3_1_new_controller_may_take_no_ship(rules: Ruleset) -> None:
    s = act(settle(conquered_oldtown(rules)), "baratheon", TakeOverShips(0))
    assert "port-of-oldtown" not in s.units


def test_6_3_1_more_ships_than_were_there_is_illegal(rules: Ruleset) -> None:
    s = settle(conquered_oldtown(rules, 2))
    before = s.hash()
    with pytest.raises(IllegalTakeover) as err:
        act(s, "baratheon", TakeOverShips(3))
    assert err.value.rule == "6.3.1"
    assert s.hash() == before


def test_1_2_2_take_over_bounded_by_available_ships(rules: Ruleset) -> None:
    s = conquered_oldtown(rules, 3)
    s.supply["baratheon"] = 6
    limit = rules.houses["baratheon"].unit_limits["ship"]
    put(s, "shipbreaker-bay", "baratheon", *["ship"] * 3)
    put(s, "blackwater-bay", "baratheon", *["ship"] * (limit - 4))
    assert prompt(settle(s), "baratheon").data["max"] == 1


def test_1_7_5_take_over_bounded_by_supply(rules: Ruleset) -> None:
    s = conquered_oldtown(rules, 2)
    s.supply["baratheon"] = 0  # supply table row 0 allows armies [2, 2] (1.7.3)
    put(s, "oldtown", "baratheon", "footman")
    put(s, "shipbreaker-bay", "baratheon", "ship", "ship")
    s = settle(s)
    assert prompt(s, "baratheon").data["max"] == 1
    with pytest.raises(IllegalTakeover):
        act(s, "baratheon", TakeOverShips(2))


def test_6_3_1_nothing_to_ask_when_no_ship_is_available(rules: Ruleset) -> None:
    s = conquered_oldtown(rules, 2)
    limit = rules.houses["baratheon"].unit_limits["ship"]
    s.supply["baratheon"] = 6
    put(s, "shipbreaker-bay", "baratheon", *["ship"] * 3)
    put(s, "blackwater-bay", "baratheon", *["ship"] * (limit - 3))
    s = settle(s)
    assert prompt(s, "baratheon") is None
    assert "port-of-oldtown" not in s.units


def test_6_3_3_home_area_reverts_and_its_owner_takes_the_ships_over(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "port-of-lannisport", "greyjoy", "ship", "ship")
    s = settle(s)  # Lannisport is empty, without power token: it is Lannister's again (1.3.3)
    assert "port-of-lannisport" not in s.units
    assert prompt(s, "lannister").data["max"] == 2
    s = act(s, "lannister", TakeOverShips(2))
    assert s.units["port-of-lannisport"] == (Unit("lannister", "ship"),) * 2


def test_12_39_ships_of_an_uncontrolled_castle_area_are_destroyed(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "port-of-oldtown", "tyrell", "ship", "ship")
    order(s, "port-of-oldtown", "support+0")
    s = settle(s)
    assert "port-of-oldtown" not in s.units
    assert "port-of-oldtown" not in s.orders
    assert not any(prompt(s, h) for h in s.houses)


def test_12_39_emptying_the_castle_area_loses_the_ships_before_the_attack(
    rules: Ruleset,
) -> None:
    s = blank(rules)
    put(s, "oldtown", "tyrell", "footman")
    put(s, "port-of-oldtown", "tyrell", "ship", "ship")
    put(s, "three-towers", "martell", "footman")
    order(s, "oldtown", "march+0")
    run(s, MarchTurn("tyrell"))
    s = act(s, "tyrell", ResolveMarch("oldtown", (("three-towers", ("footman",)),), False))
    assert s.combat is not None  # the attack has not been fought yet
    assert "port-of-oldtown" not in s.units


def test_12_38_winning_a_combat_for_the_land_area_offers_the_port(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "oldtown", "tyrell", "footman")
    put(s, "port-of-oldtown", "tyrell", "ship", "ship")
    s.supply["baratheon"] = 2
    knights = (Unit("baratheon", "knight"),) * 3
    start_combat(s, "baratheon", "dornish-marches", "oldtown", knights, "march+0")
    advance(s)
    # 3 knights 6 + Brienne 2 against footman 1 + Margaery 1: Baratheon wins (RULES.md 8.2).
    s = act(s, "baratheon", Choose("brienne-of-tarth"))
    s = act(s, "tyrell", Choose("margaery-tyrell"))
    rnd = random.Random(0)
    while s.combat is not None:
        house = sorted(pending(s))[0]
        s, _ = apply(s, house, random_action(s, house, rnd))
    assert s.units["oldtown"] == knights
    assert "port-of-oldtown" not in s.units
    assert prompt(s, "baratheon").data["max"] == 2
    s = act(s, "baratheon", TakeOverShips(2))
    assert s.units["port-of-oldtown"] == (SHIP, SHIP)


def test_6_3_1_6_3_4_take_over_after_the_march_and_its_combat_within_supply(
    rules: Ruleset,
) -> None:
    """Stark's footman walks into Lannisport (emptied, no garrison) while two knights attack
    Stoney Sept in the same march. The take-over of Lannister's three ships waits for the combat
    (6.3.4), and its maximum counts the knights that moved in: at supply 0 Stark may keep armies
    [2, 2] (1.7.3) and already has two, so one ship only (6.3.1) — not the two a count with the
    knights off the board allowed, which left Stark over its supply limit."""
    s = blank(rules)
    del s.garrisons["lannisport"]
    s.supply["stark"] = 0
    put(s, "port-of-lannisport", "lannister", "ship", "ship", "ship")
    put(s, "winterfell", "stark", "footman", "footman")
    put(s, "riverrun", "stark", "knight", "knight", "footman")
    order(s, "riverrun", "march+0")
    put(s, "stoney-sept", "lannister", "footman")
    s.hands["stark"] = ("eddard-stark",)
    s.hands["lannister"] = ("cersei-lannister",)
    run(s, MarchTurn("stark"))
    moves = (("lannisport", ("footman",)), ("stoney-sept", ("knight", "knight")))
    s = act(s, "stark", ResolveMarch("riverrun", moves))
    assert "port-of-lannisport" not in s.units  # Lannister's ships leave at once (6.3.1)
    rnd = random.Random(0)
    while s.combat is not None:
        assert all(p.kind != "port_takeover" for p in pending(s).values())
        house = sorted(pending(s))[0]
        s = act(s, house, random_action(s, house, rnd))
    # Knights 4 + Eddard 2 beat footman 1 + Cersei 0; the knights moved into Stoney Sept.
    assert s.units["stoney-sept"] == (Unit("stark", "knight"),) * 2
    assert prompt(s, "stark").data["max"] == 1
    with pytest.raises(IllegalTakeover):
        act(s, "stark", TakeOverShips(2))
    s = act(s, "stark", TakeOverShips(1))
    assert s.units["port-of-lannisport"] == (Unit("stark", "ship"),)


def test_1_3_2_a_power_token_keeps_the_port_ships(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "port-of-oldtown", "tyrell", "ship")
    s.power_tokens["oldtown"] = "tyrell"
    s = settle(s)
    assert s.units["port-of-oldtown"] == (Unit("tyrell", "ship"),)


def test_12_19_ship_mustered_into_own_port_although_the_sea_is_enemy_held(
    rules: Ruleset,
) -> None:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    put(s, "the-golden-sound", "greyjoy", "ship")
    run(s, MusterIn("lannister", "lannisport"))
    ships = next(r for r in prompt(s, "lannister").data["recruits"] if r["unit"] == "ship")
    assert ships["areas"] == ["port-of-lannisport"]
    with pytest.raises(IllegalChoice):
        act(s, "lannister", MusterUnit("ship", "the-golden-sound"))
    s = act(s, "lannister", MusterUnit("ship", "port-of-lannisport"))
    assert s.units["port-of-lannisport"] == (Unit("lannister", "ship"),)


def test_6_1_3_a_full_port_takes_no_mustered_ship(rules: Ruleset) -> None:
    s = blank(rules)
    s.supply["lannister"] = 6
    put(s, "lannisport", "lannister", "footman")
    put(s, "port-of-lannisport", "lannister", "ship", "ship", "ship")
    run(s, MusterIn("lannister", "lannisport"))
    ships = next(r for r in prompt(s, "lannister").data["recruits"] if r["unit"] == "ship")
    assert ships["areas"] == ["the-golden-sound"]


def test_3_5_3_without_the_ports_plugin_ships_go_to_the_sea_only(
    rules_no_ports: Ruleset,
) -> None:
    s = blank(rules_no_ports)
    put(s, "lannisport", "lannister", "footman")
    run(s, MusterIn("lannister", "lannisport"))
    ships = next(r for r in prompt(s, "lannister").data["recruits"] if r["unit"] == "ship")
    assert ships["areas"] == ["the-golden-sound"]


def got_gain(state: State, house: str) -> int:
    before = state.power[house]
    game_of_thrones(state)
    return state.power[house] - before


def lannister_port(rules: Ruleset) -> State:
    s = blank(rules)
    s.power["lannister"] = 0
    put(s, "lannisport", "lannister", "footman")
    put(s, "port-of-lannisport", "lannister", "ship")
    return s


def test_6_2_3_game_of_thrones_gives_one_per_port_with_own_ship(rules: Ruleset) -> None:
    s = lannister_port(rules)
    assert got_gain(s, "lannister") == rules.areas["lannisport"].crowns + 1


def test_12_40_no_port_income_when_another_house_holds_the_sea(rules: Ruleset) -> None:
    s = lannister_port(rules)
    put(s, "the-golden-sound", "greyjoy", "ship")
    assert got_gain(s, "lannister") == rules.areas["lannisport"].crowns


def test_6_2_3_own_ships_in_the_sea_keep_the_port_income(rules: Ruleset) -> None:
    s = lannister_port(rules)
    put(s, "the-golden-sound", "lannister", "ship")
    assert got_gain(s, "lannister") == rules.areas["lannisport"].crowns + 1


def test_6_2_3_an_empty_port_gives_nothing(rules: Ruleset) -> None:
    s = lannister_port(rules)
    s.units.pop("port-of-lannisport")
    assert got_gain(s, "lannister") == rules.areas["lannisport"].crowns


def test_6_game_with_ports_plays(rules: Ruleset) -> None:
    state = new_game(rules, 6, 11)
    assert state.units["port-of-pyke"] == (Unit("greyjoy", "ship"),)
    play_for(state, 400, seed=11)


def test_6_game_without_the_ports_plugin_is_fully_playable(rules_no_ports: Ruleset) -> None:
    assert not [a for a in rules_no_ports.areas.values() if a.kind == "port"]
    assert rules_no_ports.hooks.after_resolution == ()
    play_for(new_game(rules_no_ports, 6, 11), 400, seed=11)
