"""The general hooks vassals (RULES.md 11.10) need, each tested with a small toy plugin on the
base game (checked by tests/plugins/test_meta.py): a setup override, leaving a house out of a
rule point, Planning steps and who answers for a house."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from tests.builders import blank, order, put, run
from westeros import hookimpl
from westeros.engine import march, power, raid, tracks, victory
from westeros.engine.action_phase import ActionPhase
from westeros.engine.actions import Choose
from westeros.engine.combat import start_combat
from westeros.engine.consolidate import ResolveConsolidate
from westeros.engine.content import HouseOrders, Ruleset, Setup
from westeros.engine.errors import IllegalOrder
from westeros.engine.flow import Step, advance, answering_house, apply, pending, random_action
from westeros.engine.planning import PlaceOrders, PlanningPhase
from westeros.engine.setup import new_game
from westeros.engine.state import State, Unit
from westeros.engine.view import player_view
from westeros.engine.wildlings import WildlingAttack

Factory = Callable[..., Ruleset]
Rule = Callable[..., Any] | None
STARTING_POWER = 5  # RULES.md 1.5.4


class SmallCouncil:
    """Three players on the 4-player board: Greyjoy is in play without a player."""

    NAME = "small-council"

    @hookimpl
    def register_setup_overrides(self) -> list[Setup]:
        return [SMALL_COUNCIL]


SMALL_COUNCIL = Setup(
    player_count=3,
    houses=("baratheon", "lannister", "stark", "greyjoy"),
    tracks={
        "iron_throne": ("baratheon", "lannister", "stark", "greyjoy"),
        "fiefdoms": ("greyjoy", "stark", "baratheon", "lannister"),
        "kings_court": ("lannister", "stark", "baratheon", "greyjoy"),
    },
    neutral_forces={},
    blocked_areas=frozenset(),
    units_not_placed_in=frozenset(),
    supply_table=((2, 2), (3, 2), (3, 2, 2), (3, 2, 2, 2), (3, 3, 2, 2), (4, 3, 2, 2)),
    star_limits=(3, 2, 1, 0),
    players=("baratheon", "lannister", "stark"),
)


def test_hook_register_setup_overrides(westeros_ruleset: Factory) -> None:
    s = new_game(westeros_ruleset(SmallCouncil()), 3, 1)
    assert s.houses == ("baratheon", "lannister", "stark", "greyjoy")
    assert s.setup.players == ("baratheon", "lannister", "stark")
    assert any(u.house == "greyjoy" for units in s.units.values() for u in units)
    assert new_game(westeros_ruleset(), 3, 1).houses == ("baratheon", "lannister", "stark")


def greyjoy_left_out(state: State, house: str, point: str) -> bool:
    return house == "greyjoy"


class Outcasts:
    NAME = "outcasts"

    @hookimpl
    def rule_left_out(self, options: Mapping[str, Any]) -> Rule:
        return greyjoy_left_out


def test_hook_rule_left_out(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(Outcasts()), 4)
    s.tracks["kings_court"] = ("greyjoy", "lannister", "stark", "baratheon")
    assert tracks.holder(s, "kings_court") == "lannister"
    assert power.gain(s, "greyjoy", 3) == 0
    assert s.power["greyjoy"] == STARTING_POWER
    assert "greyjoy" not in victory.ranking(s)
    put(s, "pyke", "greyjoy", "footman")
    put(s, "winterfell", "stark", "footman")
    run(s, PlanningPhase())
    assert set(pending(s)) == {"stark"}
    s2 = blank(westeros_ruleset(Outcasts()), 4)
    run(s2, WildlingAttack())
    assert "greyjoy" not in pending(s2)
    assert {"stark", "lannister", "baratheon"} <= set(pending(s2))


@dataclasses.dataclass(frozen=True, slots=True)
class Muster(Step):
    def run(self, state: State) -> None:
        state.ext["planning_started"] = state.ext.get("planning_started", 0) + 1


class Heralds:
    NAME = "heralds"

    @hookimpl
    def rule_planning_steps(self, options: Mapping[str, Any]) -> Rule:
        return lambda state: [Muster()]


def test_hook_rule_planning_steps(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(Heralds()), 4)
    put(s, "winterfell", "stark", "footman")
    run(s, PlanningPhase())
    assert s.ext["planning_started"] == 1
    assert pending(s)["stark"].kind == "place_orders"


class Regency:
    NAME = "regency"

    @hookimpl
    def rule_answering_house(self, options: Mapping[str, Any]) -> Rule:
        return lambda state, house: "stark" if house == "greyjoy" else None


def test_hook_rule_answering_house(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(Regency()), 4)
    assert answering_house(s, "greyjoy") == "stark"
    assert answering_house(s, "lannister") == "lannister"
    plain = blank(westeros_ruleset(), 4)
    assert answering_house(plain, "greyjoy") == "greyjoy"


def greyjoy_scouts(state: State, house: str) -> HouseOrders | None:
    if house != "greyjoy":
        return None
    return HouseOrders(frozenset({"march+0", "raid+0"}), max_orders=1, fill_every_area=False)


class Scouts:
    NAME = "scouts"

    @hookimpl
    def rule_house_orders(self, options: Mapping[str, Any]) -> Rule:
        return greyjoy_scouts


def test_hook_rule_house_orders(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(Scouts()), 4)
    put(s, "pyke", "greyjoy", "footman")
    put(s, "greywater-watch", "greyjoy", "footman")
    put(s, "winterfell", "stark", "footman")
    run(s, PlanningPhase())
    greyjoy = pending(s)["greyjoy"].data
    assert {t["id"] for t in greyjoy["tokens"]} == {"march+0", "raid+0"}
    assert greyjoy["max_orders"] == 1
    assert len(pending(s)["stark"].data["tokens"]) == 15  # RULES.md 1.4.1
    with pytest.raises(IllegalOrder):
        apply(s, "greyjoy", PlaceOrders((("pyke", "march+0"), ("greywater-watch", "raid+0"))))
    with pytest.raises(IllegalOrder):
        apply(s, "greyjoy", PlaceOrders((("pyke", "defense+1"),)))
    s, _ = apply(s, "greyjoy", PlaceOrders((("pyke", "march+0"),)))
    s, _ = apply(s, "stark", PlaceOrders((("winterfell", "defense+1"),)))
    assert s.orders["pyke"].token == "march+0"
    assert "greywater-watch" not in s.orders


class Sanctuary:
    NAME = "sanctuary"

    @hookimpl
    def rule_off_limits(self, options: Mapping[str, Any]) -> Rule:
        return lambda state, house, area, kind: area == "the-twins"


def test_hook_rule_off_limits(westeros_ruleset: Factory) -> None:
    for rules, twins_open in ((westeros_ruleset(Sanctuary()), False), (westeros_ruleset(), True)):
        s = blank(rules, 4)
        put(s, "seagard", "lannister", "footman")
        put(s, "the-twins", "stark", "footman")
        order(s, "seagard", "march+0")
        order(s, "the-twins", "support+0")
        assert ("the-twins" in march.destinations(s, "lannister", "seagard", "land")) is twins_open
        order(s, "seagard", "raid+0")
        assert ("the-twins" in raid.targets(s, "seagard")) is twins_open


class Loyalists:
    NAME = "loyalists"

    @hookimpl
    def rule_support_options(self, options: Mapping[str, Any]) -> Rule:
        return lambda state, combat, house: ("defender",) if house == "greyjoy" else None


def twins_attack(rules: Ruleset) -> State:
    """Lannister attacks Stark in The Twins; Greyjoy (Seagard) and Baratheon (Moat Cailin)
    have Support orders next to it."""
    s = blank(rules, 4)
    put(s, "the-twins", "stark", "footman")
    put(s, "seagard", "greyjoy", "footman")
    put(s, "moat-cailin", "baratheon", "footman")
    order(s, "seagard", "support+0")
    order(s, "moat-cailin", "support+0")
    start_combat(
        s, "lannister", "the-fingers", "the-twins", (Unit("lannister", "footman"),), "march+0"
    )
    advance(s)
    return s


def test_hook_rule_support_options(westeros_ruleset: Factory) -> None:
    s = twins_attack(westeros_ruleset(Loyalists()))
    assert pending(s)["baratheon"].data["options"] == ["attacker", "defender", "none"]
    s, _ = apply(s, "baratheon", Choose("none"))
    assert "greyjoy" not in pending(s)  # its single option is taken without asking
    assert s.combat.defender.support == ("seagard",)
    plain = twins_attack(westeros_ruleset())
    plain, _ = apply(plain, "baratheon", Choose("none"))
    assert pending(plain)["greyjoy"].kind == "declare_support"


def count_loops(state: State, order_type: str) -> None:
    state.ext["loops"] = (*state.ext.get("loops", ()), order_type)


class LoopCounter:
    NAME = "loop-counter"

    @hookimpl
    def rule_order_loop_start(self, options: Mapping[str, Any]) -> Rule:
        return count_loops


def test_hook_rule_order_loop_start(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(LoopCounter()), 4)
    put(s, "pyke", "greyjoy", "footman")
    put(s, "seagard", "greyjoy", "footman")
    order(s, "pyke", "consolidate_power+0")
    order(s, "seagard", "consolidate_power+0.2")
    run(s, ActionPhase())
    assert s.ext["loops"] == ("raid", "march", "consolidate_power")
    s, _ = apply(s, "greyjoy", ResolveConsolidate("pyke"))
    assert s.ext["loops"] == ("raid", "march", "consolidate_power")  # once per loop


def draw_spare(state: State, combat: Any) -> None:
    state.hands[combat.defender.house] = ("eddard-stark", "robb-stark")


def put_back(state: State, combat: Any) -> None:
    state.hands[combat.defender.house] = (*state.hands[combat.defender.house], "catelyn-stark")


class CombatHands:
    """Stark fights with two cards handed to it for the combat; the hand grows by Catelyn when
    the combat ends; only Stark and Baratheon see Stark's hand."""

    NAME = "combat-hands"

    @hookimpl
    def rule_combat_start(self, options: Mapping[str, Any]) -> Rule:
        return draw_spare

    @hookimpl
    def rule_combat_end(self, options: Mapping[str, Any]) -> Rule:
        return put_back

    @hookimpl
    def rule_hand_viewers(self, options: Mapping[str, Any]) -> Rule:
        return lambda state, house: frozenset({"stark", "baratheon"}) if house == "stark" else None


def test_hook_rule_combat_start(westeros_ruleset: Factory) -> None:
    s = twins_attack(westeros_ruleset(CombatHands()))
    for house in ("baratheon", "greyjoy"):
        s, _ = apply(s, house, Choose("none"))
    assert pending(s)["stark"].data["cards"] == ["eddard-stark", "robb-stark"]


def test_hook_rule_combat_end(westeros_ruleset: Factory) -> None:
    s = twins_attack(westeros_ruleset(CombatHands()))
    for house in ("baratheon", "greyjoy"):
        s, _ = apply(s, house, Choose("none"))
    s, _ = apply(s, "stark", Choose("robb-stark"))
    s, _ = apply(s, "lannister", Choose("the-hound"))
    rnd = random.Random(2)
    while s.combat is not None:
        house = min(pending(s))
        s, _ = apply(s, house, random_action(s, house, rnd))
    assert s.hands["stark"] == ("eddard-stark", "catelyn-stark")


def test_hook_rule_hand_viewers(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(CombatHands()), 4)
    assert player_view(s, "baratheon")["hands"]["stark"] == list(s.hands["stark"])
    assert player_view(s, "lannister")["hands"]["stark"] == []
    assert player_view(s, None)["hands"]["stark"] == []
    assert player_view(s, "lannister")["hands"]["lannister"] == list(s.hands["lannister"])
