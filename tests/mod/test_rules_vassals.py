"""Vassal rules of RULES.md 11.10 (and 11.9.4 for vassals) that the other vassal tests leave
out: Storm of Swords forbids both vassal Defense tokens (11.10.5), a vassal's supply follows a
Supply card (11.10.2), a vassal's raid gains no PT (11.10.7), and a vassal has no Iron Bank
order nor PT, so it never buys a loan (11.9.4).
A 4-player game: Baratheon commands Arryn, Lannister Martell, Greyjoy Tyrell."""

from __future__ import annotations

import pytest

from tests.builders import act, order, put, run
from westeros.engine.action_phase import OrderLoop
from westeros.engine.content import Ruleset
from westeros.engine.errors import ForbiddenOrder, IllegalOrder
from westeros.engine.flow import apply, pending
from westeros.engine.planning import PlaceOrders
from westeros.engine.raid import ResolveRaid
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.engine.supply import update_supply
from westeros.plugins import build_ruleset
from westeros_mother_of_dragons.vassals import ClaimVassalsAction

from .test_vassals_orders import PLAYERS, VASSAL_TOKENS, VASSALS

WITH_BANK = VASSALS | {"mod_iron_bank": True, "mod_sea_orders": True}


def arryn_to_order(options: dict[str, bool], restrictions: frozenset[str] = frozenset()) -> State:
    """Claims made and every player's orders placed: Arryn's commander is asked next."""
    s = new_game(build_ruleset(options), 4, 1, options)
    s.restrictions = restrictions
    for house, claimed in (("baratheon", ("arryn",)), ("lannister", ("martell",)), ("stark", ())):
        s, _ = apply(s, house, ClaimVassalsAction(claimed))
    for house in PLAYERS:
        p = pending(s)[house]
        plain = [t["id"] for t in p.data["tokens"] if not t["star"] and not t["forbidden"]]
        s, _ = apply(s, house, PlaceOrders(tuple(zip(p.data["areas"], plain, strict=False))))
    return s


def test_11_10_5_storm_of_swords_forbids_both_vassal_defense_tokens() -> None:
    s = arryn_to_order(VASSALS, frozenset({"defense"}))
    forbidden = {t["id"]: t["forbidden"] is not None for t in pending(s)["arryn"].data["tokens"]}
    assert forbidden == {
        "vassal-march+0": False,
        "vassal-raid-support+1": False,
        "vassal-defense+1-muster": True,
        "vassal-defense+3": True,
    }
    with pytest.raises(ForbiddenOrder):
        apply(s, "arryn", PlaceOrders((("the-eyrie", "vassal-defense+1-muster"),)))
    apply(s, "arryn", PlaceOrders((("the-eyrie", "vassal-march+0"),)))


def test_11_10_2_a_vassal_s_supply_follows_a_supply_card() -> None:
    """Vassal Arryn starts at 4; its units stand in The Eyrie (1 barrel), The Vale of Arryn (0)
    and The Mountains of the Moon (1): a Supply card sets it to 2."""
    rules: Ruleset = build_ruleset(VASSALS)
    s = new_game(rules, 4, 1, VASSALS, start=False)
    assert s.supply["arryn"] == 4
    update_supply(s)
    assert s.supply["arryn"] == 2


def test_11_9_4_a_vassal_has_no_iron_bank_order_and_no_power_for_a_loan() -> None:
    """With the Iron Bank every player starts with 7 PT (11.9.1), a vassal still with none."""
    s = arryn_to_order(WITH_BANK)
    assert {t["id"] for t in pending(s)["arryn"].data["tokens"]} == VASSAL_TOKENS
    assert s.power["arryn"] == 0
    assert {s.power[h] for h in PLAYERS} == {7}
    with pytest.raises(IllegalOrder, match="no order token"):
        apply(s, "arryn", PlaceOrders((("the-bite", "iron-bank"),)))


def test_11_10_7_a_vassal_raiding_a_consolidate_power_order_gains_no_power() -> None:
    """Arryn's Raid/Support +1 in The Mountains of the Moon removes Stark's Consolidate Power
    in The Twins: Stark discards 1 PT, the vassal gets none (nor its commander)."""
    s = new_game(build_ruleset(VASSALS), 4, 1, VASSALS, start=False)
    s.ext["vassal_commanders"] = (("arryn", "baratheon"),)
    put(s, "the-twins", "stark", "footman")
    order(s, "the-twins", "consolidate_power+0")
    order(s, "the-mountains-of-the-moon", "vassal-raid-support+1")  # its vassal setup's units
    run(s, OrderLoop("raid"))
    s = act(s, "arryn", ResolveRaid("the-mountains-of-the-moon", "the-twins"))
    assert "the-twins" not in s.orders
    assert (s.power["stark"], s.power["arryn"], s.power["baratheon"]) == (4, 0, 5)


def test_11_10_4_the_vassal_tokens_carry_their_printed_values() -> None:
    """March +0, Raid/Support +1 (a plain raid first, 11.10.5), Defense +1/Muster, Defense +3."""
    tokens = build_ruleset(VASSALS).order_tokens
    printed = {t: (tokens[t].type, tokens[t].bonus, tokens[t].star) for t in VASSAL_TOKENS}
    assert printed == {
        "vassal-march+0": ("march", 0, False),
        "vassal-raid-support+1": ("raid", 0, False),
        "vassal-defense+1-muster": ("defense", 1, False),
        "vassal-defense+3": ("defense", 3, False),
    }
