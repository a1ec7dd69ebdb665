"""The general hooks behind expansion order tokens and area changes (RULES.md 5.6.3, 11.8,
11.9.6), each with a small toy plugin: a Toll token limited to sea areas and to games with the
``tolls`` option, raidable and resolved in the Consolidate Power loop; a farm that gives The
Reach a barrel for good."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

import pytest

from tests.builders import act, blank, order, prompt, put, run
from westeros import hookimpl
from westeros.ai import legal
from westeros.engine import board
from westeros.engine.action_phase import OrderLoop
from westeros.engine.consolidate import ResolveConsolidate
from westeros.engine.content import SEA, AreaDef, OrderToken, Ruleset
from westeros.engine.encoding import decode_state, encode_state
from westeros.engine.errors import IllegalOrder
from westeros.engine.flow import Step, apply
from westeros.engine.planning import PlaceOrders
from westeros.engine.public import public_state
from westeros.engine.raid import ResolveRaid
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.engine.view import player_view

from .test_hooks import Factory, Rule

TOLL = OrderToken(
    "toll",
    "toll",
    0,
    False,
    area_kinds=frozenset({SEA}),
    options=frozenset({"tolls"}),
    raidable=True,
    resolved_in="consolidate_power",
)
TOLL_POWER = 2


def collect_toll(state: State, house: str, area: str, token: str) -> bool:
    if token != TOLL.id:
        return False
    state.power[house] += TOLL_POWER
    return True


class Tolls:
    NAME = "tolls"

    @hookimpl
    def register_order_tokens(self) -> list[OrderToken]:
        return [TOLL]

    @hookimpl
    def rule_resolve_order(self, options: Mapping[str, Any]) -> Rule:
        return collect_toll


@pytest.fixture
def tolls(westeros_ruleset: Factory) -> Ruleset:
    return westeros_ruleset(Tolls())


def test_hook_rule_resolve_order(tolls: Ruleset) -> None:
    s = blank(tolls)
    put(s, "the-shivering-sea", "stark", "ship")
    order(s, "the-shivering-sea", "toll")
    s.power["stark"] = 3
    s = run(s, OrderLoop("consolidate_power"))
    data = prompt(s, "stark").data
    assert data["orders"]["the-shivering-sea"] == {
        "token": "toll",
        "yield": 0,
        "may_muster": False,
    }
    s = act(s, "stark", ResolveConsolidate("the-shivering-sea"))
    assert s.power["stark"] == 3 + TOLL_POWER
    assert "the-shivering-sea" not in s.orders
    assert prompt(s, "stark") is None


def test_a_plugin_token_is_in_the_game_only_with_its_option(tolls: Ruleset) -> None:
    off = new_game(tolls, 6, 1)
    assert "toll" not in {t["id"] for t in prompt(off, "greyjoy").data["tokens"]}
    sea = next(a for a in prompt(off, "greyjoy").data["areas"] if tolls.domain[a] == SEA)
    with pytest.raises(IllegalOrder, match="no order token"):
        apply(off, "greyjoy", PlaceOrders(((sea, "toll"),)))

    on = new_game(tolls, 6, 1, {"tolls": True})
    data = prompt(on, "greyjoy").data
    assert "toll" in {t["id"] for t in data["tokens"]}
    assert data["only_in"]["toll"] == ["ironmans-bay"]  # not its port: another kind


def test_a_token_limited_to_sea_areas_cannot_go_on_land(tolls: Ruleset) -> None:
    s = new_game(tolls, 6, 1, {"tolls": True})
    data = prompt(s, "greyjoy").data
    land = next(a for a in data["areas"] if tolls.areas[a].kind != SEA)
    others = [t["id"] for t in data["tokens"] if t["id"] != "toll" and not t["star"]]
    rest = [a for a in data["areas"] if a != land]
    placement = ((land, "toll"), *zip(rest, others, strict=False))
    with pytest.raises(IllegalOrder, match="cannot be placed"):
        apply(s, "greyjoy", PlaceOrders(placement))


def test_every_ai_placement_keeps_a_sea_token_at_sea(tolls: Ruleset) -> None:
    s = new_game(tolls, 6, 1, {"tolls": True})
    rnd = random.Random(3)
    for seed in range(20):
        view = player_view(s, "greyjoy")
        action = legal.random_action(view, tolls, random.Random(seed))
        apply(s, "greyjoy", action)  # the engine accepts it
        assert isinstance(action, PlaceOrders)
        assert all(tolls.areas[a].kind == SEA for a, t in action.orders if t == "toll")
        engine_pick = s.stack[-1].random_action(s, "greyjoy", rnd)
        apply(s, "greyjoy", engine_pick)


def test_a_raidable_plugin_order_is_removed_without_pillage(tolls: Ruleset) -> None:
    s = blank(tolls)
    put(s, "the-shivering-sea", "stark", "ship")
    order(s, "the-shivering-sea", "toll")
    put(s, "the-narrow-sea", "baratheon", "ship")
    order(s, "the-narrow-sea", "raid+0")
    s.power.update(stark=4, baratheon=4)
    s = run(s, OrderLoop("raid"))
    assert prompt(s, "baratheon").data["raids"]["the-narrow-sea"]["targets"] == [
        "the-shivering-sea"
    ]
    s = act(s, "baratheon", ResolveRaid("the-narrow-sea", "the-shivering-sea"))
    assert "the-shivering-sea" not in s.orders
    assert (s.power["stark"], s.power["baratheon"]) == (4, 4)


def farmed(state: State) -> list[AreaDef]:
    if not state.ext.get("farm"):
        return []
    area = state.rules.base.areas["the-reach"]
    return [dataclasses.replace(area, barrels=area.barrels + 1)]


class Farm:
    NAME = "farm"

    @hookimpl
    def rule_area_changes(self, options: Mapping[str, Any]) -> Rule:
        return farmed


def test_hook_rule_area_changes(westeros_ruleset: Factory) -> None:
    rules = westeros_ruleset(Farm())
    s = blank(rules)
    put(s, "the-reach", "tyrell", "footman")
    before = board.barrels(s, "tyrell")
    s.ext["farm"] = True
    board.refresh_areas(s)
    assert board.barrels(s, "tyrell") == before + 1
    assert rules.areas["the-reach"].barrels == 0  # the game's own Ruleset is unchanged
    again = decode_state(encode_state(s), rules)
    assert board.barrels(again, "tyrell") == before + 1
    seat = public_state(player_view(s, "tyrell"), rules)
    assert board.barrels(seat, "tyrell") == before + 1


@dataclasses.dataclass(frozen=True, slots=True)
class Herald(Step):
    """Counts the rounds it has announced, before anything else of the round happens."""

    def run(self, state: State) -> None:
        state.ext["heralded"] = state.ext.get("heralded", 0) + 1


def herald(state: State) -> None:
    state.push(Herald())


class Heralds:
    NAME = "heralds"

    @hookimpl
    def rule_round_start(self, options: Mapping[str, Any]) -> Rule:
        return herald


def test_steps_a_round_start_hook_pushes_run_before_the_rounds_phases(
    westeros_ruleset: Factory,
) -> None:
    s = new_game(westeros_ruleset(Heralds()), 3, 1)
    assert prompt(s, "stark").kind == "place_orders"  # round 1 is in its Planning phase
    assert s.ext["heralded"] == 1  # ... and the step already ran
