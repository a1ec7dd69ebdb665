"""Vassal families and power (RULES.md 11.10.6, 11.10.7): a commander and its vassals of the
round never march into (attack) an area another member controls, even by a power token
alone, nor raid each other's orders; vassals never enter ports; when a vassal wins a combat,
its commander gains 1 power token."""

from __future__ import annotations

import random

import pytest

from westeros.engine import board, march, raid, tracks
from westeros.engine.actions import Choose
from westeros.engine.combat import start_combat
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalAction
from westeros.engine.flow import advance, apply, pending, random_action
from westeros.engine.march import ResolveMarch
from westeros.engine.mustering import MusteringAll
from westeros.engine.setup import new_game
from westeros.engine.state import Order, State, Unit
from westeros.plugins import build_ruleset

VASSALS = {"mother_of_dragons": True, "mod_vassals": True}
MOUNTAINS = "the-mountains-of-the-moon"


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(VASSALS)


@pytest.fixture
def game(rules: Ruleset) -> State:
    """A 4-player vassal game, nothing queued: Baratheon commands Arryn this round, Stark
    commands Martell."""
    s = new_game(rules, 4, 1, VASSALS, start=False)
    s.ext["vassal_commanders"] = (
        ("arryn", "baratheon"),
        ("martell", "stark"),
        ("tyrell", "greyjoy"),
    )
    return s


def test_11_10_6_a_vassal_does_not_attack_its_commander(game: State) -> None:
    s = game
    board.add_units(s, "the-twins", "baratheon", ["footman"])
    s.orders[MOUNTAINS] = Order("arryn", "vassal-march+0")
    assert "the-twins" not in march.destinations(s, "arryn", MOUNTAINS, "land")
    with pytest.raises(IllegalAction):
        march.check(s, "arryn", ResolveMarch(MOUNTAINS, (("the-twins", ("knight",)),)))
    s.ext["vassal_commanders"] = (("arryn", "stark"),)
    assert "the-twins" in march.destinations(s, "arryn", MOUNTAINS, "land")


def test_11_10_6_not_even_an_area_held_by_a_family_power_token(game: State) -> None:
    s = game
    assert board.occupant(s, "crackclaw-point") is None
    s.power_tokens["crackclaw-point"] = "baratheon"
    assert "crackclaw-point" in board.reachable(s, "arryn", MOUNTAINS, "land")
    assert "crackclaw-point" not in march.destinations(s, "arryn", MOUNTAINS, "land")


def test_11_10_6_a_commander_does_not_attack_its_vassal(game: State) -> None:
    s = game
    board.add_units(s, "the-twins", "baratheon", ["footman"])
    s.orders["the-twins"] = Order("baratheon", "march+0")
    assert MOUNTAINS not in march.destinations(s, "baratheon", "the-twins", "land")
    assert "moat-cailin" in march.destinations(s, "baratheon", "the-twins", "land")


def test_11_10_6_no_raid_inside_the_family(game: State) -> None:
    s = game
    board.add_units(s, "the-twins", "baratheon", ["footman"])
    s.orders["the-twins"] = Order("baratheon", "raid+0")
    s.orders[MOUNTAINS] = Order("arryn", "vassal-raid-support+1")
    s.orders["moat-cailin"] = Order("stark", "support+0")
    targets = raid.targets(s, "the-twins")
    assert MOUNTAINS not in targets
    assert "moat-cailin" in targets


def test_11_10_6_vassals_never_move_into_ports(game: State) -> None:
    s = game
    board.remove_units(s, "port-of-the-eyrie", list(s.units["port-of-the-eyrie"]))
    s.orders["the-narrow-sea"] = Order("arryn", "vassal-march+0")
    assert "port-of-the-eyrie" in board.reachable(s, "arryn", "the-narrow-sea", "sea")
    assert "port-of-the-eyrie" not in march.destinations(s, "arryn", "the-narrow-sea", "sea")


def test_11_10_7_a_vassal_s_victory_gives_its_commander_1_power(game: State) -> None:
    s = game
    board.add_units(s, "the-twins", "stark", ["footman"])
    army = (Unit("arryn", "knight"),) * 4
    start_combat(s, "arryn", MOUNTAINS, "the-twins", army, "vassal-march+0")
    advance(s)
    rnd = random.Random(0)
    events = []
    while s.combat is not None and pending(s):
        house = sorted(pending(s))[0]
        s, got = apply(s, house, random_action(s, house, rnd))
        events += got
    assert board.occupant(s, "the-twins") == "arryn"
    assert s.power["baratheon"] == 6  # 5 (1.5.4) + 1
    assert s.power["arryn"] == 0
    assert any(e.kind == "vassal_won" and e.data["house"] == "baratheon" for e in events)


def test_11_10_7_a_vassal_leaving_a_land_area_empty_holds_it_with_a_free_power_token(
    game: State,
) -> None:
    s = game
    vale = "the-vale-of-arryn"
    s.orders[vale] = Order("arryn", "vassal-march+0")
    action = ResolveMarch(vale, (("the-eyrie", ("footman", "knight")),))
    march.resolve(s, "arryn", action, march.check(s, "arryn", action))
    assert vale not in s.units
    assert s.power_tokens[vale] == "arryn"
    assert board.controller(s, vale) == "arryn"
    assert s.power["arryn"] == 0
    assert any(e.kind == "vassal_power_token" for e in s.events)


def test_11_10_7_no_free_power_token_while_a_unit_stays(game: State) -> None:
    s = game
    vale = "the-vale-of-arryn"
    s.orders[vale] = Order("arryn", "vassal-march+0")
    action = ResolveMarch(vale, (("the-eyrie", ("knight",)),))
    march.resolve(s, "arryn", action, march.check(s, "arryn", action))
    assert vale not in s.power_tokens


def test_11_10_6_a_vassal_s_support_goes_to_its_family_member(game: State) -> None:
    s = game
    board.add_units(s, "the-twins", "baratheon", ["footman"])
    s.orders[MOUNTAINS] = Order("arryn", "vassal-support+1")  # a Raid/Support left as Support
    start_combat(s, "stark", "moat-cailin", "the-twins", (Unit("stark", "footman"),), "march+0")
    advance(s)
    assert "arryn" not in pending(s)  # not asked: it supports its commander
    assert s.combat.defender.support == (MOUNTAINS,)
    assert s.combat.attacker.support == ()


def test_11_10_6_a_vassal_musters_only_in_its_home_area(game: State) -> None:
    s = game
    # Martell's vassal setup holds its home Sunspear and the castles Yronwood and Starfall.
    s.push(MusteringAll())
    advance(s)
    asked = []
    rnd = random.Random(1)
    while pending(s):
        house = sorted(pending(s))[0]
        p = pending(s)[house]
        asked.append((house, p.data.get("area")))
        s, _ = apply(s, house, random_action(s, house, rnd))
    martell = {area for house, area in asked if house == "martell"}
    assert martell == {"sunspear"}
    assert board.controller(s, "yronwood") == board.controller(s, "starfall") == "martell"
    lannister = {area for house, area in asked if house == "lannister"}
    assert len(lannister) >= 1


def test_11_10_8_the_commander_may_use_its_blade_in_its_vassal_s_combat(game: State) -> None:
    s = game
    assert tracks.holder(s, "fiefdoms") == "greyjoy"
    s.ext["vassal_commanders"] = (("arryn", "greyjoy"),)
    board.add_units(s, "the-twins", "stark", ["footman"])
    start_combat(s, "arryn", MOUNTAINS, "the-twins", (Unit("arryn", "footman"),), "vassal-march+0")
    s.hands["arryn"] = ("janos-slynt", "varys", "bronn")  # the 3 cards drawn (11.10.8)
    advance(s)
    # 1 + 2 against 1 + 2: Stark wins the tie on Fiefdoms unless the Blade adds 1 for Arryn.
    s, _ = apply(s, "arryn", Choose("janos-slynt"))
    s, _ = apply(s, "stark", Choose("greatjon-umber"))
    assert pending(s)["greyjoy"].kind == "use_blade"
    s, _ = apply(s, "greyjoy", Choose("use"))
    assert s.blade_used
