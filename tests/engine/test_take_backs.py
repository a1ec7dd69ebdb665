"""Take-backs of secret simultaneous decisions (RULES.md 4.1, 3.6.2, 7.2.1, 5.4.3; issue 13.2):
a house may change a committed order set, bid or house card until the last house commits;
that commitment reveals everything at once and closes the window. Others see only who has
committed, never what, and never that anything was replaced beyond a second "committed"."""

from __future__ import annotations

import pytest

from tests.builders import act, blank, prompt, put, run
from westeros.engine import board
from westeros.engine.actions import Bid, Choose
from westeros.engine.bidding import ClashOfKings
from westeros.engine.combat import StartCombat
from westeros.engine.content import Ruleset
from westeros.engine.errors import AlreadyRevealed, IllegalAction, NotPending
from westeros.engine.flow import apply, pending
from westeros.engine.planning import PlaceOrders, PlanningPhase
from westeros.engine.state import State
from westeros.engine.view import player_view, visible
from westeros.engine.wildlings import WildlingAttack


def planning(rules: Ruleset) -> State:
    s = blank(rules)
    put(s, "lannisport", "lannister", "footman")
    put(s, "winterfell", "stark", "footman")
    return run(s, PlanningPhase())


def fight(s: State) -> State:
    """Lannister attacks Stark in the Blackwater with a footman (5.4)."""
    put(s, "blackwater", "stark", "footman")
    put(s, "stoney-sept", "lannister", "footman")
    units = s.units["stoney-sept"]
    board.remove_units(s, "stoney-sept", units)
    return run(s, StartCombat("lannister", "stoney-sept", "blackwater", units, "march+0"))


def test_4_1_orders_changed_while_another_house_decides_are_the_ones_revealed(
    rules: Ruleset,
) -> None:
    s = planning(rules)
    s = act(s, "lannister", PlaceOrders((("lannisport", "raid+0*"),)))
    assert sorted(pending(s)) == ["stark"]  # an AI is never asked again after committing
    s, events = apply(s, "lannister", PlaceOrders((("lannisport", "defense+1"),)))
    assert [(e.kind, e.data) for e in events] == [("committed", {"house": "lannister"})]
    assert sorted(pending(s)) == ["stark"]
    assert player_view(s, "lannister")["take_back"]["commitment"] == {
        "kind": "place_orders",
        "orders": [["lannisport", "defense+1"]],
    }
    s, events = apply(s, "stark", PlaceOrders((("winterfell", "march+0"),)))
    revealed = [e.data["orders"] for e in events if e.kind == "orders_revealed"]
    assert revealed == [
        {"lannisport": ["lannister", "defense+1"], "winterfell": ["stark", "march+0"]}
    ]


def test_4_1_the_last_commitment_reveals_at_once_and_closes_the_window(rules: Ruleset) -> None:
    s = planning(rules)
    s = act(s, "lannister", PlaceOrders((("lannisport", "raid+0*"),)))
    s = act(s, "stark", PlaceOrders((("winterfell", "march+0"),)))
    view = player_view(s, "stark")
    assert (view["committed"], view["take_back"]) == ([], None)
    assert "stark" not in pending(s)  # the Messenger Raven asks the King's Court holder only
    before = s.hash()
    with pytest.raises(AlreadyRevealed) as refused:
        apply(s, "stark", PlaceOrders((("winterfell", "defense+1"),)))
    assert refused.value.code == "illegal/already-revealed"
    assert s.hash() == before
    assert s.orders["winterfell"].token == "march+0"


def test_4_1_an_illegal_take_back_keeps_the_earlier_commitment(rules: Ruleset) -> None:
    s = planning(rules)
    s = act(s, "lannister", PlaceOrders((("lannisport", "raid+0*"),)))
    before = s.hash()
    with pytest.raises(IllegalAction):
        apply(s, "lannister", PlaceOrders((("winterfell", "raid+0"),)))
    assert s.hash() == before
    assert player_view(s, "lannister")["take_back"]["commitment"]["orders"] == [
        ["lannisport", "raid+0*"]
    ]


def test_3_6_2_a_bid_changed_before_the_reveal_is_the_one_paid(rules: Ruleset) -> None:
    s = run(blank(rules, 3), ClashOfKings())
    power = dict(s.power)
    s = act(s, "stark", Bid(2))
    s = act(s, "stark", Bid(0))
    s = act(s, "lannister", Bid(1))
    s, events = apply(s, "baratheon", Bid(1))
    bids = [e.data["bids"] for e in events if e.kind == "bids"]
    assert bids[0]["stark"] == 0
    assert s.power["stark"] == power["stark"]
    assert s.power["lannister"] == power["lannister"] - 1


def test_7_2_1_a_wildling_bid_changed_before_the_reveal_is_the_one_counted(
    rules: Ruleset,
) -> None:
    s = blank(rules, 3)
    run(s, WildlingAttack())
    s = act(s, "baratheon", Bid(1))
    s = act(s, "baratheon", Bid(0))
    s = act(s, "lannister", Bid(0))
    s, events = apply(s, "stark", Bid(0))
    [revealed] = [e.data for e in events if e.kind == "wildling_bids"]
    assert revealed["bids"] == {"baratheon": 0, "lannister": 0, "stark": 0}
    assert sorted(pending(s)) == ["baratheon"]  # the Iron Throne breaks the tie (7.2.3)
    before = s.hash()
    with pytest.raises(AlreadyRevealed):
        apply(s, "lannister", Bid(1))
    assert s.hash() == before


def test_5_4_3_a_house_card_changed_before_the_reveal_is_the_one_played(rules: Ruleset) -> None:
    s = fight(blank(rules))
    s = act(s, "stark", Choose("the-blackfish"))
    s = act(s, "stark", Choose("eddard-stark"))
    assert prompt(s, "lannister").kind == "choose_house_card"
    done = act(s, "lannister", Choose("the-hound"))
    assert done.discards["stark"] == ("eddard-stark",)
    assert "the-blackfish" in done.hands["stark"]
    before = done.hash()
    with pytest.raises(NotPending):
        apply(done, "stark", Choose("the-blackfish"))
    assert done.hash() == before


def test_0_4_4_views_show_who_committed_never_what(rules: Ruleset) -> None:
    s = planning(rules)
    s = act(s, "lannister", PlaceOrders((("lannisport", "raid+0*"),)))
    others = {h: player_view(s, h) for h in ("stark", "baratheon", None)}
    for view in others.values():
        assert view["committed"] == ["lannister"]
        assert (view["take_back"], view["orders"]) == (None, {})
    s, events = apply(s, "lannister", PlaceOrders((("lannisport", "defense+1"),)))
    for viewer, view in others.items():
        assert player_view(s, viewer) == view  # the replacement changes nothing they see
        seen = [(e.kind, e.data) for e in events if visible(e, viewer)]
        assert seen == [("committed", {"house": "lannister"})]
    assert player_view(s, "stark")["prompt"]["kind"] == "place_orders"
    assert player_view(s, "lannister")["prompt"] is None
