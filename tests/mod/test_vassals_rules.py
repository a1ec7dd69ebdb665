"""What a vassal never does (RULES.md 11.10.1): it has no power of its own, never bids (0 on the
tracks, no part in wildling attacks), never holds a dominance token (the highest non-vassal
does) and cannot win."""

from __future__ import annotations

import pytest

from westeros.base.westeros_cards import game_of_thrones
from westeros.engine import board, tracks, victory
from westeros.engine.actions import Bid
from westeros.engine.bidding import ClashOfKings, TrackOrder
from westeros.engine.content import Ruleset
from westeros.engine.flow import advance, apply, pending
from westeros.engine.planning import MessengerRaven
from westeros.engine.setup import new_game
from westeros.engine.state import State
from westeros.engine.wildlings import WildlingAttack
from westeros.plugins import build_ruleset

VASSALS = {"mother_of_dragons": True, "mod_vassals": True}
PLAYERS_4 = ("baratheon", "lannister", "stark", "greyjoy")
VASSALS_4 = ("tyrell", "martell", "arryn")


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return build_ruleset(VASSALS)


def four(rules: Ruleset) -> State:
    """A 4-player vassal game set up, no step queued."""
    return new_game(rules, 4, 1, VASSALS, start=False)


def test_11_10_1_vassals_never_bid_on_the_influence_tracks(rules: Ruleset) -> None:
    s = four(rules)
    s.push(ClashOfKings())
    advance(s)
    assert set(pending(s)) == set(PLAYERS_4)
    events = []
    for amount, house in enumerate(PLAYERS_4, start=1):
        s, got = apply(s, house, Bid(amount))
        events += got
    bids = next(e for e in events if e.kind == "bids").data["bids"]
    assert all(bids[v] == 0 for v in VASSALS_4)
    ties = pending(s)["baratheon"]
    assert ties.kind == "order_ties"
    assert ties.data["groups"][-1] == {"bid": 0, "houses": ["martell", "tyrell", "arryn"]}
    order = tuple(h for g in ties.data["groups"] for h in g["houses"])
    s, _ = apply(s, "baratheon", TrackOrder(order))
    assert s.tracks["iron_throne"][:4] == ("greyjoy", "stark", "lannister", "baratheon")


def test_11_10_1_a_vassal_never_holds_a_dominance_token(rules: Ruleset) -> None:
    s = four(rules)
    s.tracks["kings_court"] = (
        "arryn",
        "tyrell",
        "stark",
        "lannister",
        "baratheon",
        "greyjoy",
        "martell",
    )
    s.tracks["iron_throne"] = (
        "martell",
        "greyjoy",
        "baratheon",
        "lannister",
        "stark",
        "tyrell",
        "arryn",
    )
    assert tracks.holder(s, "kings_court") == "stark"
    assert tracks.holder(s, "iron_throne") == "greyjoy"
    s.push(MessengerRaven())
    advance(s)
    assert set(pending(s)) == {"stark"}


def test_11_10_1_vassals_take_no_part_in_a_wildling_attack(rules: Ruleset) -> None:
    s = four(rules)
    s.push(WildlingAttack())
    advance(s)
    assert set(pending(s)) == set(PLAYERS_4)
    attack = next(e for e in s.events if e.kind == "wildling_attack")
    assert set(attack.data["houses"]) == set(PLAYERS_4)


def test_11_10_7_game_of_thrones_gives_a_vassal_no_power(rules: Ruleset) -> None:
    s = four(rules)
    assert s.rules.areas["sunspear"].crowns > 0
    assert board.controller(s, "sunspear") == "martell"
    game_of_thrones(s)
    assert all(s.power[v] == 0 for v in VASSALS_4)
    assert s.power["baratheon"] > 5


def test_11_10_1_a_vassal_with_seven_castles_does_not_win(rules: Ruleset) -> None:
    s = four(rules)
    castles = sorted(a for a in s.rules.castle_areas if board.occupant(s, a) is None)[:7]
    for area in castles:
        board.add_units(s, area, "tyrell", ["footman"])
    assert board.castle_count(s, "tyrell") >= 7
    assert not victory.check(s)
    assert s.winner is None
    assert "tyrell" not in victory.ranking(s)
    assert set(victory.ranking(s)) == set(PLAYERS_4)
