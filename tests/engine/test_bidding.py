"""Clash of Kings: bidding on the influence tracks (RULES.md 3.6) and §12.26."""

from __future__ import annotations

import random

import pytest

from westeros.engine.actions import Bid
from westeros.engine.bidding import ClashOfKings, TrackOrder
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalChoice, NotEnoughPower, NotPending
from westeros.engine.flow import apply, pending, random_action
from westeros.engine.state import State
from westeros.engine.view import player_view

from ..builders import act, blank, prompt, run

# 3 players: Iron Throne baratheon, lannister, stark; Fiefdoms stark, baratheon, lannister;
# King's Court lannister, stark, baratheon.


def bid(s: State, **bids: int) -> State:
    """Every house named commits its bid for the current track."""
    for house, amount in bids.items():
        s = act(s, house, Bid(amount))
    return s


def test_3_6_2_bids_go_to_the_pool_and_rebuild_the_track(rules: Ruleset) -> None:
    s = run(blank(rules, 3), ClashOfKings())
    assert {h: prompt(s, h).data["track"] for h in s.houses} == dict.fromkeys(
        s.houses, "iron_throne"
    )
    s = bid(s, baratheon=1, lannister=3, stark=2)
    assert s.tracks["iron_throne"] == ("lannister", "stark", "baratheon")
    assert s.power == {"baratheon": 4, "lannister": 2, "stark": 3}
    assert prompt(s, "lannister").data == {"track": "fiefdoms", "min": 0, "max": 2}
    s = bid(s, baratheon=4, lannister=0, stark=1)
    assert s.tracks["fiefdoms"] == ("baratheon", "stark", "lannister")
    assert "baratheon" not in pending(s)  # no power left: bids 0 (3.6.2)
    s = bid(s, lannister=2, stark=1)
    assert s.tracks["kings_court"] == ("lannister", "stark", "baratheon")
    assert s.power == {"baratheon": 0, "lannister": 0, "stark": 1}
    assert not s.stack


def test_3_6_4_dominance_follows_the_new_order(rules: Ruleset) -> None:
    s = run(blank(rules, 3), ClashOfKings())
    s = bid(s, baratheon=1, lannister=0, stark=5)
    assert s.tracks["iron_throne"][0] == "stark"
    # Stark now holds the Iron Throne: its tie on Fiefdoms is Stark's to break.
    s = bid(s, baratheon=2, lannister=2)
    assert set(pending(s)) == {"stark"}
    assert prompt(s, "stark").kind == "order_ties"


def test_3_6_2_house_without_power_bids_zero_unasked(rules: Ruleset) -> None:
    s = blank(rules, 3)
    s.power["stark"] = 0
    run(s, ClashOfKings())
    assert set(pending(s)) == {"baratheon", "lannister"}
    s = bid(s, baratheon=1, lannister=2)
    assert s.tracks["iron_throne"] == ("lannister", "baratheon", "stark")


def test_3_6_2_bid_above_available_power_is_illegal(rules: Ruleset) -> None:
    s = run(blank(rules, 3), ClashOfKings())
    before = s.hash()
    with pytest.raises(NotEnoughPower):
        apply(s, "stark", Bid(6))
    with pytest.raises(IllegalChoice):
        apply(s, "stark", Bid(-1))
    assert s.hash() == before


def test_0_4_4_bids_stay_secret_until_revealed(rules: Ruleset) -> None:
    s = run(blank(rules, 3), ClashOfKings())
    view_before = player_view(s, "lannister")
    s, events = apply(s, "stark", Bid(4))
    assert all("amount" not in e.data and "bids" not in e.data for e in events)
    view_after = player_view(s, "lannister")
    changed = {k for k, v in view_after.items() if v != view_before[k]}
    assert changed == {"waiting_for", "committed"}
    assert view_after["committed"] == ["stark"]
    s, events = apply(s, "baratheon", Bid(0))
    s, events = apply(s, "lannister", Bid(1))
    revealed = [e.data["bids"] for e in events if e.kind == "bids"]
    assert revealed == [{"baratheon": 0, "lannister": 1, "stark": 4}]
    assert all(e.to is None for e in events if e.kind == "bids")


def test_12_26_iron_throne_tie_broken_by_the_pre_bid_holder(rules: Ruleset) -> None:
    s = run(blank(rules, 3), ClashOfKings())
    s = bid(s, baratheon=0, lannister=2, stark=2)
    assert set(pending(s)) == {"baratheon"}  # holder before this bid, now last
    assert prompt(s, "baratheon").data["groups"] == [
        {"bid": 2, "houses": ["lannister", "stark"]},
        {"bid": 0, "houses": ["baratheon"]},
    ]
    s = act(s, "baratheon", TrackOrder(("stark", "lannister", "baratheon")))
    assert s.tracks["iron_throne"] == ("stark", "lannister", "baratheon")
    s = bid(s, baratheon=1, lannister=1, stark=1)
    assert set(pending(s)) == {"stark"}  # the newly determined holder


def test_3_6_3_tie_order_must_keep_higher_bids_first(rules: Ruleset) -> None:
    s = run(blank(rules, 3), ClashOfKings())
    s = bid(s, baratheon=0, lannister=2, stark=2)
    before = s.hash()
    for order in (
        ("baratheon", "stark", "lannister"),
        ("stark", "lannister"),
        ("stark", "stark", "baratheon"),
    ):
        with pytest.raises(IllegalChoice):
            apply(s, "baratheon", TrackOrder(order))
    with pytest.raises(NotPending):
        apply(s, "stark", TrackOrder(("stark", "lannister", "baratheon")))
    assert s.hash() == before


def test_3_6_random_bidding_keeps_tracks_and_power_consistent(rules: Ruleset) -> None:
    rnd = random.Random(5)
    for seed in range(20):
        s = run(blank(rules, 3 + seed % 4, seed), ClashOfKings())
        start = sum(s.power.values())
        while pending(s):
            house = sorted(pending(s))[0]
            s, _ = apply(s, house, random_action(s, house, rnd))
        assert not s.stack
        assert all(sorted(order) == sorted(s.houses) for order in s.tracks.values())
        assert 0 <= sum(s.power.values()) <= start
