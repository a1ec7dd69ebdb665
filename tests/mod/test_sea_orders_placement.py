"""Mother of Dragons sea order tokens (RULES.md 11.8, 4.3.4): three extra tokens per house,
only in sea areas and ports, not starred, under the Westeros restrictions of their ordinary
counterparts."""

from __future__ import annotations

from typing import Any

import pytest

from tests.builders import order, prompt, put, run
from westeros.ai import legal
from westeros.engine.content import Ruleset
from westeros.engine.errors import ForbiddenOrder, IllegalOrder
from westeros.engine.flow import apply
from westeros.engine.planning import MessengerRaven, PlaceOrders, ReplaceOrder
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.plugins import build_ruleset

from .conftest import MOD

SEA = {**MOD, "mod_sea_orders": True}
BANK = {**MOD, "mod_iron_bank": True}
BOTH = {**SEA, **BANK}
SEA_TOKENS = {"sea-march-1", "sea-support+0", "iron-bank"}
BASE_TOKENS_PER_HOUSE = 15  # RULES.md 1.4.1


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(BOTH)


def greyjoy(
    rules: Ruleset, options: dict[str, Any], restrictions: frozenset[str] = frozenset()
) -> State:
    """A new 7-player game in its first Planning phase (Greyjoy has ships in Ironman's Bay
    and the Port of Pyke, footmen on land)."""
    s = new_game(rules, 7, 1, options)
    s.restrictions = restrictions
    s.cache = None
    return s


def tokens(s: State) -> dict[str, dict[str, Any]]:
    return {t["id"]: t for t in prompt(s, "greyjoy").data["tokens"]}


def test_11_8_1_three_unstarred_sea_tokens_per_house(rules: Ruleset) -> None:
    s = greyjoy(rules, SEA)
    found = tokens(s)
    assert len(found) == BASE_TOKENS_PER_HOUSE + 3  # 11.8.2: up to 18 orders
    assert set(found) >= SEA_TOKENS
    assert (found["sea-march-1"]["type"], found["sea-march-1"]["bonus"]) == ("march", -1)
    assert (found["sea-support+0"]["type"], found["sea-support+0"]["bonus"]) == ("support", 0)
    assert not any(found[t]["star"] for t in SEA_TOKENS)


def test_11_8_no_sea_tokens_without_the_options(rules: Ruleset) -> None:
    assert not SEA_TOKENS & set(tokens(greyjoy(rules, MOD)))


def test_11_8_3_the_iron_bank_alone_still_brings_the_iron_bank_token(rules: Ruleset) -> None:
    found = set(tokens(greyjoy(rules, BANK)))
    assert "iron-bank" in found
    assert not {"sea-march-1", "sea-support+0"} & found


def test_4_3_4_sea_tokens_only_in_sea_areas_and_ports(rules: Ruleset) -> None:
    s = greyjoy(rules, SEA)
    data = prompt(s, "greyjoy").data
    water = [a for a in data["areas"] if rules.domain[a] == "sea"]
    assert set(water) == {"ironmans-bay", "port-of-pyke"}
    for token in SEA_TOKENS:
        assert data["only_in"][token] == water
    land = next(a for a in data["areas"] if a not in water)
    with pytest.raises(IllegalOrder, match="cannot be placed"):
        apply(s, "greyjoy", PlaceOrders(((land, "sea-support+0"),)))


def full_placement(s: State, sea_token: str, area: str) -> PlaceOrders:
    """``sea_token`` in ``area`` and unstarred ordinary tokens everywhere else."""
    data = prompt(s, "greyjoy").data
    others = [
        t["id"]
        for t in data["tokens"]
        if t["id"] not in SEA_TOKENS and not t["star"] and not t["forbidden"]
    ]
    rest = [a for a in data["areas"] if a != area]
    return PlaceOrders(((area, sea_token), *zip(rest, others, strict=False)))


def test_11_8_1_placed_in_a_port_and_a_sea(rules: Ruleset) -> None:
    s = greyjoy(rules, BOTH)
    s, _ = apply(s, "greyjoy", full_placement(s, "iron-bank", "port-of-pyke"))
    assert prompt(s, "greyjoy") is None  # accepted, waiting for the others
    s = greyjoy(rules, BOTH)
    s, _ = apply(s, "greyjoy", full_placement(s, "sea-march-1", "ironmans-bay"))
    assert prompt(s, "greyjoy") is None


def test_11_8_1_rains_of_autumn_leaves_sea_march_minus_one(rules: Ruleset) -> None:
    s = greyjoy(rules, SEA, frozenset({"march+1"}))
    assert tokens(s)["sea-march-1"]["forbidden"] is None
    assert tokens(s)["march+1*"]["forbidden"]
    s, _ = apply(s, "greyjoy", full_placement(s, "sea-march-1", "ironmans-bay"))
    assert prompt(s, "greyjoy") is None


def test_11_8_1_web_of_lies_forbids_sea_support(rules: Ruleset) -> None:
    s = greyjoy(rules, SEA, frozenset({"support"}))
    assert tokens(s)["sea-support+0"]["forbidden"]
    with pytest.raises(ForbiddenOrder):
        apply(s, "greyjoy", full_placement(s, "sea-support+0", "ironmans-bay"))


def test_11_8_1_feast_for_crows_leaves_the_iron_bank_order(rules: Ruleset) -> None:
    s = greyjoy(rules, BOTH, frozenset({"consolidate_power"}))
    assert tokens(s)["iron-bank"]["forbidden"] is None
    s, _ = apply(s, "greyjoy", full_placement(s, "iron-bank", "ironmans-bay"))
    assert prompt(s, "greyjoy") is None


def raven_game(rules: Ruleset) -> State:
    """Lannister (King's Court) has revealed Defense +1 in Lannisport and Support +0 in The
    Golden Sound and decides with the Messenger Raven (4.4)."""
    s = new_game(rules, 7, 1, SEA, start=False)
    s.units.clear()
    s.orders.clear()
    put(s, "lannisport", "lannister", "footman")
    put(s, "the-golden-sound", "lannister", "ship")
    order(s, "lannisport", "defense+1")
    order(s, "the-golden-sound", "support+0")
    s.placed["lannister"] = frozenset({"defense+1", "support+0"})
    return run(s, MessengerRaven())


def test_4_4_the_raven_puts_a_sea_token_only_at_sea(rules: Ruleset) -> None:
    s = raven_game(rules)
    data = prompt(s, "lannister").data
    assert data["only_in"]["sea-march-1"] == ["the-golden-sound"]
    offered = {(r.area, r.token) for r in legal.raven_replacements(data, rules)}
    assert ("the-golden-sound", "sea-support+0") in offered
    assert not {t for a, t in offered if a == "lannisport"} & SEA_TOKENS
    with pytest.raises(IllegalOrder, match="cannot be placed"):
        apply(s, "lannister", ReplaceOrder("lannisport", "sea-march-1"))
    s, _ = apply(s, "lannister", ReplaceOrder("the-golden-sound", "sea-march-1"))
    assert s.orders["the-golden-sound"].token == "sea-march-1"
