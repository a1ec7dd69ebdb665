"""March orders (RULES.md 5.3) and attacks on neutral forces (5.5)."""

from __future__ import annotations

import json
import random

import pytest

from tests.builders import act, blank, order, prompt, put, run
from westeros.engine import board
from westeros.engine.actions import Action, Choose
from westeros.engine.content import Ruleset
from westeros.engine.errors import (
    IllegalAction,
    IllegalMove,
    NeutralForceTooStrong,
    NotEnoughPower,
    NotYourOrder,
    PowerTokenNotAllowed,
    SupplyExceeded,
    TooManyCombats,
    UnitsCannotMove,
)
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.march import MarchTurn, ResolveMarch
from westeros.engine.state import Order, State, Unit

Moves = tuple[tuple[str, tuple[str, ...]], ...]


def units(state: State, area: str) -> list[tuple[str, str, bool]]:
    """The units in ``area`` as sorted (house, type, routed) triples."""
    return sorted((u.house, u.type, u.routed) for u in state.units.get(area, ()))


def march(state: State, house: str, area: str, moves: Moves, leave_power: bool = False) -> State:
    """Start ``house``'s March turn and resolve the order in ``area`` with ``moves``."""
    run(state, MarchTurn(house))
    return act(state, house, ResolveMarch(area, moves, leave_power))


def refused(state: State, house: str, action: Action, error: type[IllegalAction]) -> None:
    """``action`` raises ``error`` and the state stays exactly as it was (DESIGN §2)."""
    if not pending(state):
        run(state, MarchTurn(house))
    before = state.hash()
    with pytest.raises(error):
        apply(state, house, action)
    assert state.hash() == before


def land_options(state: State, house: str, area: str) -> dict[str, dict]:
    """The land destinations the prompt offers for the March order in ``area``, by area."""
    data = prompt(state, house).data["marches"][area]
    return {d["area"]: d for d in data["destinations"].get("land", [])}


# ---------------------------------------------------------------------------- 5.3.1 moving


def test_5_3_1_simple_move(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman", "knight")
    order(s, "winterfell", "march+0")
    s = march(s, "stark", "winterfell", (("castle-black", ("footman", "knight")),))
    assert units(s, "castle-black") == [("stark", "footman", False), ("stark", "knight", False)]
    assert units(s, "winterfell") == []
    assert "winterfell" not in s.orders
    assert pending(s) == {}


def test_5_3_1_split_into_several_areas_and_leave_some_behind(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman", "footman", "knight")
    order(s, "winterfell", "march+1*")
    s = march(s, "stark", "winterfell", (("karhold", ("footman",)), ("white-harbor", ("knight",))))
    assert units(s, "karhold") == [("stark", "footman", False)]
    assert units(s, "white-harbor") == [("stark", "knight", False)]
    assert units(s, "winterfell") == [("stark", "footman", False)]
    assert "winterfell" not in s.orders


def test_5_3_1_zero_moves_just_removes_the_order(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman")
    order(s, "winterfell", "march-1")
    s = march(s, "stark", "winterfell", ())
    assert units(s, "winterfell") == [("stark", "footman", False)]
    assert "winterfell" not in s.orders


def test_5_3_1_routed_units_cannot_march(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "knight")
    put(s, "winterfell", "stark", "footman", routed=True)
    order(s, "winterfell", "march+0")
    refused(s, "stark", ResolveMarch("winterfell", (("karhold", ("footman",)),)), UnitsCannotMove)
    s = act(s, "stark", ResolveMarch("winterfell", (("karhold", ("knight",)),)))
    assert units(s, "karhold") == [("stark", "knight", False)]
    assert units(s, "winterfell") == [("stark", "footman", True)]


def test_12_4_march_order_with_only_routed_units_is_removed(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman", routed=True)
    order(s, "winterfell", "march+0")
    run(s, MarchTurn("stark"))
    assert pending(s) == {}
    assert "winterfell" not in s.orders
    assert units(s, "winterfell") == [("stark", "footman", True)]


def test_12_4_routed_march_area_can_be_chosen_and_is_simply_removed(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman", routed=True)
    put(s, "white-harbor", "stark", "knight")
    order(s, "winterfell", "march+0")
    order(s, "white-harbor", "march-1")
    run(s, MarchTurn("stark"))
    offered = prompt(s, "stark").data["marches"]["winterfell"]
    assert offered["units"] == [] and offered["staying"] == 1
    s = act(s, "stark", ResolveMarch("winterfell", ()))
    assert "winterfell" not in s.orders
    assert s.orders["white-harbor"].token == "march-1"
    assert units(s, "winterfell") == [("stark", "footman", True)]


# ---------------------------------------------------------------------------- 5.3.5-5.3.6 reach


def test_5_3_6_ship_transport_along_a_chain_of_own_ships(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman")
    put(s, "bay-of-ice", "stark", "ship")
    put(s, "sunset-sea", "stark", "ship")
    order(s, "winterfell", "march+0")
    run(s, MarchTurn("stark"))
    assert "searoad-marches" in land_options(s, "stark", "winterfell")
    s = act(s, "stark", ResolveMarch("winterfell", (("searoad-marches", ("footman",)),)))
    assert units(s, "searoad-marches") == [("stark", "footman", False)]
    assert units(s, "bay-of-ice") == [("stark", "ship", False)]


def test_5_3_6_no_transport_without_own_ships(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman")
    order(s, "winterfell", "march+0")
    refused(s, "stark", ResolveMarch("winterfell", (("flints-finger", ("footman",)),)), IllegalMove)


def test_5_3_6_other_houses_ships_never_transport(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman")
    put(s, "bay-of-ice", "stark", "ship")
    put(s, "sunset-sea", "greyjoy", "ship")
    order(s, "winterfell", "march+0")
    run(s, MarchTurn("stark"))
    reach = land_options(s, "stark", "winterfell")
    assert "flints-finger" in reach
    assert "searoad-marches" not in reach
    refused(
        s, "stark", ResolveMarch("winterfell", (("searoad-marches", ("footman",)),)), IllegalMove
    )


def test_5_3_5_ships_enter_a_port_only_when_holding_its_land_area(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "bay-of-ice", "stark", "ship", "ship")
    order(s, "bay-of-ice", "march+0")
    s = march(s, "stark", "bay-of-ice", (("port-of-winterfell", ("ship", "ship")),))
    assert units(s, "port-of-winterfell") == [("stark", "ship", False)] * 2

    s = blank(rules)
    put(s, "bay-of-ice", "greyjoy", "ship")
    order(s, "bay-of-ice", "march+0")
    refused(
        s, "greyjoy", ResolveMarch("bay-of-ice", (("port-of-winterfell", ("ship",)),)), IllegalMove
    )


def test_6_1_4_enemy_ships_in_a_port_cannot_be_attacked(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "port-of-winterfell", "stark", "ship")
    put(s, "bay-of-ice", "greyjoy", "ship")
    order(s, "bay-of-ice", "march+1*")
    run(s, MarchTurn("greyjoy"))
    sea = [
        d["area"] for d in prompt(s, "greyjoy").data["marches"]["bay-of-ice"]["destinations"]["sea"]
    ]
    assert "port-of-winterfell" not in sea
    refused(
        s, "greyjoy", ResolveMarch("bay-of-ice", (("port-of-winterfell", ("ship",)),)), IllegalMove
    )


def test_6_1_3_a_port_holds_at_most_three_ships(rules: Ruleset) -> None:
    s = blank(rules)
    s.supply["stark"] = 6
    put(s, "port-of-winterfell", "stark", "ship", "ship", "ship")
    put(s, "bay-of-ice", "stark", "ship")
    order(s, "bay-of-ice", "march+0")
    refused(
        s, "stark", ResolveMarch("bay-of-ice", (("port-of-winterfell", ("ship",)),)), IllegalMove
    )


def test_1_10_4_blocked_area_cannot_be_entered(rules: Ruleset) -> None:
    s = blank(rules, players=3)
    put(s, "kingswood", "baratheon", "footman")
    order(s, "kingswood", "march+0")
    run(s, MarchTurn("baratheon"))
    reach = land_options(s, "baratheon", "kingswood")
    assert "storms-end" not in reach and "the-boneway" not in reach
    assert "the-reach" in reach
    refused(s, "baratheon", ResolveMarch("kingswood", (("storms-end", ("footman",)),)), IllegalMove)


# ---------------------------------------------------------------------------- 5.3.3-5.3.4 combat


def test_5_3_4_prompt_tells_which_destinations_start_a_combat(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "riverrun", "stark", "footman", "knight")
    put(s, "seagard", "lannister", "footman")
    s.power_tokens["harrenhal"] = "greyjoy"
    order(s, "riverrun", "march+0")
    run(s, MarchTurn("stark"))
    reach = land_options(s, "stark", "riverrun")
    assert (reach["seagard"]["combat"], reach["seagard"]["against"]) == ("house", "lannister")
    assert (reach["lannisport"]["combat"], reach["lannisport"]["against"]) == ("house", "lannister")
    assert reach["harrenhal"]["combat"] is None
    assert reach["stoney-sept"]["combat"] is None
    assert json.loads(json.dumps(prompt(s, "stark").data)) == prompt(s, "stark").data


def test_12_1_garrisoned_empty_home_area_is_a_combat(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "riverrun", "stark", "footman", "knight")
    order(s, "riverrun", "march+0")
    s = march(s, "stark", "riverrun", (("lannisport", ("footman", "knight")),))
    assert s.combat is not None
    assert s.combat.area == "lannisport" and s.combat.origin == "riverrun"
    assert s.combat.attacker.house == "stark"
    assert s.combat.defender.house == "lannister"
    assert s.combat.defender.units == ()  # the garrison alone defends
    assert sorted(u.type for u in s.combat.attacker.units) == ["footman", "knight"]
    assert units(s, "riverrun") == []  # the attacking army has left its origin (5.3.8)


def test_5_3_4_enemy_home_area_without_garrison_or_units_is_no_combat(rules: Ruleset) -> None:
    s = blank(rules)
    del s.garrisons["lannisport"]
    put(s, "riverrun", "stark", "footman")
    order(s, "riverrun", "march+0")
    s = march(s, "stark", "riverrun", (("lannisport", ("footman",)),))
    assert s.combat is None
    assert units(s, "lannisport") == [("stark", "footman", False)]
    assert board.controller(s, "lannisport") == "stark"


def test_12_2_power_token_alone_is_no_combat_and_a_real_combat_may_follow(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "baratheon", "knight", "knight", "footman")
    order(s, "blackwater", "march+1*")
    s.power_tokens["harrenhal"] = "lannister"
    s.power["lannister"] = 4
    s = march(
        s,
        "baratheon",
        "blackwater",
        (("harrenhal", ("footman",)), ("kings-landing", ("knight", "knight"))),
    )
    assert "harrenhal" not in s.power_tokens
    assert s.power["lannister"] == 4  # the token goes back to the Power Pool (1.5.5)
    assert board.controller(s, "harrenhal") == "baratheon"
    assert units(s, "kings-landing") == [("baratheon", "knight", False)] * 2
    assert "kings-landing" not in s.neutral


def test_12_3_two_enemy_areas_in_one_march_are_illegal(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "footman", "knight")
    put(s, "karhold", "greyjoy", "footman")
    put(s, "castle-black", "lannister", "footman")
    order(s, "winterfell", "march+1*")
    action = ResolveMarch("winterfell", (("karhold", ("footman",)), ("castle-black", ("knight",))))
    refused(s, "stark", action, TooManyCombats)


def test_12_3_a_neutral_force_counts_as_the_one_combat(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "crackclaw-point", "baratheon", "knight", "knight", "knight")
    put(s, "harrenhal", "lannister", "footman")
    order(s, "crackclaw-point", "march+1*")
    action = ResolveMarch(
        "crackclaw-point", (("kings-landing", ("knight", "knight")), ("harrenhal", ("knight",)))
    )
    refused(s, "baratheon", action, TooManyCombats)


# ---------------------------------------------------------------------------- 5.3.7 supply


def test_5_3_7_march_that_breaks_supply_is_illegal(rules: Ruleset) -> None:
    s = blank(rules)
    s.supply["stark"] = 1  # armies allowed: 3, 2
    put(s, "winterfell", "stark", "footman", "footman", "knight")
    put(s, "white-harbor", "stark", "footman", "footman")
    put(s, "karhold", "stark", "footman")
    order(s, "winterfell", "march+0")
    refused(s, "stark", ResolveMarch("winterfell", (("karhold", ("footman",)),)), SupplyExceeded)
    s = act(s, "stark", ResolveMarch("winterfell", (("castle-black", ("footman",)),)))
    assert units(s, "castle-black") == [("stark", "footman", False)]


def test_5_3_7_combat_move_counts_as_an_army_in_the_embattled_area(rules: Ruleset) -> None:
    s = blank(rules)
    s.supply["stark"] = 5  # armies allowed: 4, 3, 2, 2
    put(s, "winterfell", "stark", "footman", "footman", "knight", "knight")
    put(s, "karhold", "stark", "footman", "footman", "footman")
    put(s, "white-harbor", "stark", "footman", "footman")
    put(s, "castle-black", "stark", "footman", "footman")
    put(s, "moat-cailin", "lannister", "footman")
    order(s, "winterfell", "march+0")
    action = ResolveMarch("winterfell", (("moat-cailin", ("knight", "knight")),))
    refused(s, "stark", action, SupplyExceeded)


# ---------------------------------------------------------------------------- 5.3.9 power token


def test_12_13_power_token_is_left_with_the_march_declaration(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "baratheon", "knight", "knight")
    order(s, "blackwater", "march+1*")
    s = march(
        s, "baratheon", "blackwater", (("kings-landing", ("knight", "knight")),), leave_power=True
    )
    assert s.power_tokens["blackwater"] == "baratheon"
    assert s.power["baratheon"] == 4
    assert board.controller(s, "blackwater") == "baratheon"
    assert pending(s) == {}


def test_12_13_without_a_token_the_emptied_area_is_uncontrolled(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "baratheon", "knight", "knight")
    order(s, "blackwater", "march+1*")
    s = march(s, "baratheon", "blackwater", (("kings-landing", ("knight", "knight")),))
    assert board.controller(s, "blackwater") is None
    assert s.power["baratheon"] == 5
    assert pending(s) == {}


def test_12_13_power_token_is_in_place_before_the_combat(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "karhold", "stark", "knight")
    put(s, "castle-black", "greyjoy", "footman")
    order(s, "karhold", "march+0")
    s = march(s, "stark", "karhold", (("castle-black", ("knight",)),), leave_power=True)
    assert s.combat is not None and s.combat.defender.house == "greyjoy"
    assert s.power_tokens["karhold"] == "stark"
    assert s.power["stark"] == 4


def test_5_3_9_power_token_only_when_every_unit_leaves(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "karhold", "stark", "knight", "footman")
    order(s, "karhold", "march+0")
    action = ResolveMarch("karhold", (("castle-black", ("knight",)),), True)
    refused(s, "stark", action, PowerTokenNotAllowed)


def test_5_3_9_no_power_token_in_own_home_area(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "knight")
    order(s, "winterfell", "march+0")
    run(s, MarchTurn("stark"))
    assert prompt(s, "stark").data["marches"]["winterfell"]["may_leave_power"] is False
    action = ResolveMarch("winterfell", (("karhold", ("knight",)),), True)
    refused(s, "stark", action, PowerTokenNotAllowed)


def test_5_3_9_no_power_token_in_a_sea_area(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "bay-of-ice", "stark", "ship")
    order(s, "bay-of-ice", "march+0")
    action = ResolveMarch("bay-of-ice", (("sunset-sea", ("ship",)),), True)
    refused(s, "stark", action, PowerTokenNotAllowed)


def test_5_3_9_no_power_token_without_an_available_one(rules: Ruleset) -> None:
    s = blank(rules)
    s.power["stark"] = 0
    put(s, "karhold", "stark", "knight")
    order(s, "karhold", "march+0")
    action = ResolveMarch("karhold", (("castle-black", ("knight",)),), True)
    refused(s, "stark", action, NotEnoughPower)


def test_5_3_9_no_second_token_where_the_house_already_has_one(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "karhold", "stark", "knight")
    s.power_tokens["karhold"] = "stark"
    order(s, "karhold", "march+0")
    refused(
        s,
        "stark",
        ResolveMarch("karhold", (("castle-black", ("knight",)),), True),
        PowerTokenNotAllowed,
    )
    s = act(s, "stark", ResolveMarch("karhold", (("castle-black", ("knight",)),)))
    assert board.controller(s, "karhold") == "stark"
    assert s.power["stark"] == 5


# ---------------------------------------------------------------------------- §12.39 port ships


def test_12_39_emptied_castle_area_loses_its_port_ships(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "white-harbor", "stark", "footman")
    put(s, "port-of-white-harbor", "stark", "ship", "ship")
    order(s, "white-harbor", "march+0")
    s = march(s, "stark", "white-harbor", (("widows-watch", ("footman",)),))
    assert units(s, "port-of-white-harbor") == []


def test_12_39_a_power_token_keeps_the_port_ships(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "white-harbor", "stark", "footman")
    put(s, "port-of-white-harbor", "stark", "ship", "ship")
    order(s, "white-harbor", "march+0")
    s = march(s, "stark", "white-harbor", (("widows-watch", ("footman",)),), leave_power=True)
    assert units(s, "port-of-white-harbor") == [("stark", "ship", False)] * 2
    assert board.controller(s, "port-of-white-harbor") == "stark"


def test_12_39_port_ships_are_lost_before_the_attack_resolves(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "white-harbor", "stark", "knight")
    put(s, "port-of-white-harbor", "stark", "ship")
    put(s, "moat-cailin", "lannister", "footman", "footman")
    order(s, "white-harbor", "march+0")
    s = march(s, "stark", "white-harbor", (("moat-cailin", ("knight",)),))
    assert s.combat is not None
    assert units(s, "port-of-white-harbor") == []


def test_6_3_4_port_ships_are_removed_before_the_combat_but_taken_over_after_it(
    rules: Ruleset,
) -> None:
    s = blank(rules)
    del s.garrisons["lannisport"]  # Stark captured Lannisport earlier
    put(s, "lannisport", "stark", "knight", "footman")
    put(s, "port-of-lannisport", "stark", "ship")
    put(s, "riverrun", "lannister", "footman")
    order(s, "lannisport", "march+0")
    s = march(s, "stark", "lannisport", (("riverrun", ("knight",)), ("stoney-sept", ("footman",))))
    # Lannisport reverted to Lannister (1.3.3): Stark's ships leave the port at once (6.3.3) ...
    assert board.controller(s, "lannisport") == "lannister"
    assert units(s, "port-of-lannisport") == []
    # ... but the take-over waits until the march, combat included, is resolved (6.3.4).
    assert s.combat is not None and s.combat.area == "riverrun"
    rnd = random.Random(0)
    while s.combat is not None:
        assert all(p.kind != "port_takeover" for p in pending(s).values())
        house = sorted(pending(s))[0]
        s = act(s, house, random_action(s, house, rnd))
    assert prompt(s, "lannister").kind == "port_takeover"


# ---------------------------------------------------------------------------- 5.5 neutral forces


@pytest.mark.parametrize(("token", "legal"), [("march+1*", True), ("march-1", False)])
def test_12_41_neutral_force_needs_strength_at_least_its_value(
    rules: Ruleset, token: str, legal: bool
) -> None:
    s = blank(rules)
    put(s, "blackwater", "baratheon", "knight", "knight")
    order(s, "blackwater", token)
    action = ResolveMarch("blackwater", (("kings-landing", ("knight", "knight")),))
    if not legal:
        refused(s, "baratheon", action, NeutralForceTooStrong)
        return
    s = march(s, "baratheon", "blackwater", action.moves)
    assert "kings-landing" not in s.neutral
    assert units(s, "kings-landing") == [("baratheon", "knight", False)] * 2
    assert s.combat is None and pending(s) == {}


def test_5_5_1_own_support_counts_against_a_neutral_force(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "baratheon", "knight", "knight")
    put(s, "blackwater-bay", "baratheon", "ship")
    order(s, "blackwater", "march+0")
    order(s, "blackwater-bay", "support+0")
    run(s, MarchTurn("baratheon"))
    offered = land_options(s, "baratheon", "blackwater")["kings-landing"]
    assert (offered["combat"], offered["neutral"], offered["support"]) == ("neutral", 5, 1)
    s = act(s, "baratheon", ResolveMarch("blackwater", (("kings-landing", ("knight", "knight")),)))
    assert units(s, "kings-landing") == [("baratheon", "knight", False)] * 2
    assert "kings-landing" not in s.neutral


def test_5_5_1_without_support_the_same_attack_is_too_weak(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "baratheon", "knight", "knight")
    order(s, "blackwater", "march+0")
    action = ResolveMarch("blackwater", (("kings-landing", ("knight", "knight")),))
    refused(s, "baratheon", action, NeutralForceTooStrong)


def test_5_5_1_siege_engine_counts_four_against_a_castle_neutral_force(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "the-mountains-of-the-moon", "baratheon", "siege_engine", "footman")
    order(s, "the-mountains-of-the-moon", "march+1*")
    s = march(
        s, "baratheon", "the-mountains-of-the-moon", (("the-eyrie", ("footman", "siege_engine")),)
    )
    assert "the-eyrie" not in s.neutral
    assert board.controller(s, "the-eyrie") == "baratheon"


def test_5_5_3_units_moved_into_own_support_area_count(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "baratheon", "knight", "knight", "footman")
    put(s, "crackclaw-point", "baratheon", "footman")
    order(s, "blackwater", "march-1")
    order(s, "crackclaw-point", "support+0")
    # 2 knights (4) - 1 + support of one footman (1) = 4 < 5
    refused(
        s,
        "baratheon",
        ResolveMarch("blackwater", (("kings-landing", ("knight", "knight")),)),
        NeutralForceTooStrong,
    )
    # the footman joins the supporting area first: 4 - 1 + 2 = 5
    s = act(
        s,
        "baratheon",
        ResolveMarch(
            "blackwater",
            (("crackclaw-point", ("footman",)), ("kings-landing", ("knight", "knight"))),
        ),
    )
    assert "kings-landing" not in s.neutral
    assert units(s, "crackclaw-point") == [("baratheon", "footman", False)] * 2


def lannister_may_help(rules: Ruleset) -> State:
    """Baratheon's two knights (4) and March +0 against King's Landing's 5 (2.1, 6 players);
    Lannister's ship in Blackwater Bay has a Support order (+1) next to King's Landing."""
    s = blank(rules)
    put(s, "blackwater", "baratheon", "knight", "knight")
    order(s, "blackwater", "march+0")
    put(s, "blackwater-bay", "lannister", "ship")
    order(s, "blackwater-bay", "support+0")
    return run(s, MarchTurn("baratheon"))


KINGS_LANDING = ResolveMarch("blackwater", (("kings-landing", ("knight", "knight")),))


def test_5_5_1_other_houses_support_counts_for_a_neutral_attack_when_they_agree(
    rules: Ruleset,
) -> None:
    s = lannister_may_help(rules)
    offered = land_options(s, "baratheon", "blackwater")["kings-landing"]
    assert (offered["support"], offered["other_support"]) == (0, {"lannister": 1})
    s = act(s, "baratheon", KINGS_LANDING)
    # Nothing moves before the other house has answered (5.5.3).
    assert units(s, "blackwater") == [("baratheon", "knight", False)] * 2
    asked = prompt(s, "lannister")
    assert asked.kind == "support_neutral_attack"
    assert (asked.data["attacker"], asked.data["area"], asked.data["strength"]) == (
        "baratheon",
        "kings-landing",
        1,
    )
    s = act(s, "lannister", Choose("yes"))
    # 4 + 0 + Lannister's ship 1 = 5: the neutral force is removed, the knights move in.
    assert "kings-landing" not in s.neutral
    assert units(s, "kings-landing") == [("baratheon", "knight", False)] * 2


def test_5_5_1_declined_support_calls_the_attack_off_and_no_longer_counts(
    rules: Ruleset,
) -> None:
    s = lannister_may_help(rules)
    s = act(s, "baratheon", KINGS_LANDING)
    s = act(s, "lannister", Choose("no"))
    # Nothing moved, the March order is still there and Baratheon chooses again ...
    assert s.neutral["kings-landing"] == 5
    assert units(s, "blackwater") == [("baratheon", "knight", False)] * 2
    assert prompt(s, "baratheon").kind == "march"
    assert prompt(s, "baratheon").data["declined"] == [["kings-landing", "lannister"]]
    # ... without counting on Lannister's support this time.
    offered = land_options(s, "baratheon", "blackwater")["kings-landing"]
    assert offered["other_support"] == {}
    refused(s, "baratheon", KINGS_LANDING, NeutralForceTooStrong)


def test_5_5_1_a_decline_that_leaves_too_little_support_calls_the_attack_off_at_once(
    rules: Ruleset,
) -> None:
    """One knight (2) needs both Stark's knight (2) and Lannister's ship (1) against King's
    Landing's 5: when the first house asked declines, the other is not asked in vain."""
    s = blank(rules)
    put(s, "blackwater", "baratheon", "knight")
    order(s, "blackwater", "march+0")
    put(s, "crackclaw-point", "stark", "knight")
    order(s, "crackclaw-point", "support+0")
    put(s, "blackwater-bay", "lannister", "ship")
    order(s, "blackwater-bay", "support+0")
    s = run(s, MarchTurn("baratheon"))
    s = act(s, "baratheon", ResolveMarch("blackwater", (("kings-landing", ("knight",)),)))
    first = next(h for h in ("stark", "lannister") if prompt(s, h) is not None)
    other = "lannister" if first == "stark" else "stark"
    assert prompt(s, other) is None
    s = act(s, first, Choose("no"))
    assert prompt(s, other) is None
    assert prompt(s, "baratheon").kind == "march"
    assert s.neutral["kings-landing"] == 5
    assert units(s, "blackwater") == [("baratheon", "knight", False)]


def test_5_5_1_support_never_adds_to_the_neutral_force(rules: Ruleset) -> None:
    s = lannister_may_help(rules)
    s.units["blackwater"] = (Unit("baratheon", "knight"), Unit("baratheon", "footman"))
    s.cache = None
    # 3 + Lannister's 1 = 4 < 5, whatever Lannister would answer: no question is asked.
    march_ = ResolveMarch("blackwater", (("kings-landing", ("footman", "knight")),))
    refused(s, "baratheon", march_, NeutralForceTooStrong)


def test_5_5_1_own_support_enough_asks_nobody(rules: Ruleset) -> None:
    s = lannister_may_help(rules)
    s.orders["blackwater"] = Order("baratheon", "march+1*")
    s.cache = None
    s = act(s, "baratheon", KINGS_LANDING)
    assert "kings-landing" not in s.neutral
    assert prompt(s, "lannister") is None


# ---------------------------------------------------------------------------- illegal actions


@pytest.mark.parametrize(
    ("action", "error"),
    [
        (ResolveMarch("white-harbor", ()), NotYourOrder),
        (ResolveMarch("moat-cailin", ()), NotYourOrder),
        (ResolveMarch("karhold", ()), NotYourOrder),
        (ResolveMarch("winterfell", (("karhold", ("knight", "knight")),)), UnitsCannotMove),
        (ResolveMarch("winterfell", (("bay-of-ice", ("ship",)),)), UnitsCannotMove),
        (ResolveMarch("winterfell", (("karhold", ("dragon",)),)), UnitsCannotMove),
        (
            ResolveMarch("winterfell", (("karhold", ("knight",)), ("castle-black", ("knight",)))),
            UnitsCannotMove,
        ),
        (ResolveMarch("winterfell", (("karhold", ()),)), IllegalMove),
        (
            ResolveMarch("winterfell", (("karhold", ("knight",)), ("karhold", ("footman",)))),
            IllegalMove,
        ),
        (ResolveMarch("winterfell", (("lannisport", ("knight",)),)), IllegalMove),
        (ResolveMarch("winterfell", (("nowhere", ("knight",)),)), IllegalMove),
        (ResolveMarch("winterfell", (("the-shivering-sea", ("knight",)),)), IllegalMove),
        (ResolveMarch("winterfell", (("winterfell", ("knight",)),)), IllegalMove),
        (ResolveMarch("winterfell", (("port-of-winterfell", ("knight",)),)), IllegalMove),
        (
            ResolveMarch(
                "winterfell", (("karhold", ("knight", "footman", "footman", "footman")),), True
            ),
            PowerTokenNotAllowed,
        ),
    ],
)
def test_5_3_illegal_marches_raise_a_specific_error_and_change_nothing(
    rules: Ruleset, action: ResolveMarch, error: type[IllegalAction]
) -> None:
    s = blank(rules)
    put(s, "winterfell", "stark", "knight", "footman", "footman", "footman")
    put(s, "white-harbor", "stark", "footman")
    put(s, "moat-cailin", "lannister", "footman")
    order(s, "winterfell", "march+0")
    order(s, "white-harbor", "defense+1")
    order(s, "moat-cailin", "march+0")
    refused(s, "stark", action, error)


def test_5_3_resolve_march_round_trips_through_json() -> None:
    action = ResolveMarch("winterfell", (("karhold", ("footman", "knight")),), True)
    assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action
    assert Action.from_json({"kind": "resolve_march", "area": "a", "moves": []}) == ResolveMarch(
        "a", ()
    )


# ---------------------------------------------------------------------------- random play


def test_5_3_random_march_actions_are_always_legal(rules: Ruleset) -> None:
    s = blank(rules)
    s.supply["baratheon"] = 4  # armies allowed: 3, 3, 2, 2 (the board holds 3, 3, 2, 2)
    put(s, "blackwater", "baratheon", "knight", "knight", "footman")
    put(s, "crackclaw-point", "baratheon", "footman", "footman")
    put(s, "shipbreaker-bay", "baratheon", "ship", "ship")
    put(s, "port-of-dragonstone", "baratheon", "ship", "ship", "ship")
    put(s, "kingswood", "baratheon", "siege_engine")
    put(s, "the-reach", "baratheon", "footman", routed=True)
    s.power_tokens["harrenhal"] = "lannister"
    for area, token in [
        ("blackwater", "march+1*"),
        ("crackclaw-point", "march-1"),
        ("shipbreaker-bay", "march+0"),
        ("port-of-dragonstone", "support+0"),
        ("kingswood", "support+1*"),
        ("the-reach", "defense+1"),
    ]:
        order(s, area, token)
    run(s, MarchTurn("baratheon"))
    rnd = random.Random(5)
    seen_moves = seen_nothing = seen_token = seen_neutral = 0
    turn = pending(s)["baratheon"]
    assert turn.kind == "march"
    for _ in range(400):
        action = s.stack[-1].random_action(s, "baratheon", rnd)
        after, _ = apply(s, "baratheon", action)  # raises if the action is illegal
        seen_moves += bool(action.moves)
        seen_nothing += not action.moves
        seen_token += action.leave_power
        seen_neutral += "kings-landing" not in after.neutral
    assert seen_moves and seen_nothing and seen_token and seen_neutral


def test_5_3_fuzzed_marches_are_legal_or_refused_with_the_state_unchanged(rules: Ruleset) -> None:
    s = blank(rules)
    put(s, "blackwater", "baratheon", "knight", "knight", "footman")
    put(s, "blackwater", "baratheon", "footman", routed=True)
    put(s, "shipbreaker-bay", "baratheon", "ship", "ship")
    put(s, "crackclaw-point", "baratheon", "footman")
    put(s, "harrenhal", "lannister", "footman")
    put(s, "the-reach", "tyrell", "footman")
    put(s, "searoad-marches", "greyjoy", "knight")
    put(s, "port-of-storms-end", "baratheon", "ship")
    s.power_tokens["stoney-sept"] = "lannister"
    for area, token in [
        ("blackwater", "march+0"),
        ("shipbreaker-bay", "march+1*"),
        ("crackclaw-point", "support+0"),
        ("harrenhal", "defense+1"),
        ("port-of-storms-end", "march-1"),
    ]:
        order(s, area, token)
    run(s, MarchTurn("baratheon"))
    rnd = random.Random(11)
    extra = ["dragonstone", "port-of-dragonstone", "nowhere"]
    outcomes: set[str] = set()
    before = s.hash()
    for _ in range(1000):
        area = rnd.choice(["blackwater", "shipbreaker-bay", "port-of-storms-end", "harrenhal"])
        words = sorted(rules.adjacency[area]) + extra
        kinds = [u.type for u in s.units[area]] + ["knight", "ship", "dragon"]
        moves = tuple(
            (rnd.choice(words), tuple(rnd.choice(kinds) for _ in range(rnd.randint(0, 2))))
            for _ in range(rnd.randint(0, 3))
        )
        try:
            after, _ = apply(s, "baratheon", ResolveMarch(area, moves, rnd.random() < 0.3))
            outcomes.add("combat" if after.combat is not None else "accepted")
        except IllegalAction as error:
            assert error.rule
            outcomes.add(type(error).__name__)
        assert s.hash() == before
    assert {"accepted", "combat", "UnitsCannotMove", "IllegalMove", "TooManyCombats"} <= outcomes
