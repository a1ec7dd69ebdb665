"""Targaryen's Clash of Kings bid (RULES.md 11.6.6): it moves its bid, PT by PT, onto other
houses' bids, never its own and never more than it bid; the track is built from the adjusted
bids, ties go to the Iron Throne holder and Targaryen stays last."""

from __future__ import annotations

import pytest

from tests.builders import act, prompt, run
from westeros.engine.actions import Bid, Choose
from westeros.engine.bidding import TrackBid
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalChoice
from westeros.engine.flow import apply, pending
from westeros.engine.state import State

from .test_targaryen_cards import blank8

T = "targaryen"
STOP = "done"


OTHERS = {"baratheon": 0, "greyjoy": 5, "tyrell": 6, "martell": 7, "arryn": 8}  # no ties


def bid(rules: Ruleset, bids: dict[str, int]) -> State:
    s = blank8(rules, 3)
    s.power = dict.fromkeys(s.houses, 10)
    run(s, TrackBid("fiefdoms", tuple(s.houses), ()))
    for house in s.houses:
        s = act(s, house, Bid({**OTHERS, **bids}.get(house, 0)))
    return s


def test_11_6_6_targaryen_moves_its_bid_onto_another_house(mod_rules: Ruleset) -> None:
    s = bid(mod_rules, {"stark": 1, "lannister": 2, T: 2})
    s = act(s, T, Choose("stark"))
    s = act(s, T, Choose("stark"))  # Stark 3 beats Lannister 2
    assert pending(s) == {}
    assert s.tracks["fiefdoms"][4:6] == ("stark", "lannister")
    assert s.tracks["fiefdoms"][-1] == T
    assert s.power[T] == 8  # its bid is spent as usual


def test_11_6_6_never_its_own_bid_nor_more_than_it_bid(mod_rules: Ruleset) -> None:
    s = bid(mod_rules, {"stark": 1, "lannister": 2, T: 1})
    assert T not in prompt(s, T).data["options"]
    with pytest.raises(IllegalChoice):
        apply(s, T, Choose(T))
    s = act(s, T, Choose("arryn"))  # its only PT: nothing more to give
    assert pending(s) == {}
    assert s.tracks["fiefdoms"][0] == "arryn"


def test_11_6_6_it_may_stop_and_give_nothing(mod_rules: Ruleset) -> None:
    s = bid(mod_rules, {"stark": 1, "lannister": 2, T: 4})
    s = act(s, T, Choose(STOP))
    assert s.tracks["fiefdoms"][4:6] == ("lannister", "stark")
    assert s.tracks["fiefdoms"][-1] == T


def test_11_6_6_ties_after_the_distribution_go_to_the_iron_throne_holder(
    mod_rules: Ruleset,
) -> None:
    s = bid(mod_rules, {"stark": 1, "lannister": 2, T: 1})
    s = act(s, T, Choose("stark"))  # Stark 2 ties with Lannister
    holder = s.tracks["iron_throne"][0]
    assert prompt(s, holder).kind == "order_ties"


def test_11_6_6_no_bid_no_question(mod_rules: Ruleset) -> None:
    s = bid(mod_rules, {"stark": 2})
    assert prompt(s, T) is None


def test_11_6_6_the_prompt_shows_the_revealed_bids_as_they_stand(mod_rules: Ruleset) -> None:
    s = bid(mod_rules, {"stark": 1, "lannister": 2, T: 2})
    p = prompt(s, T)
    assert p.kind == "distribute_bid"
    assert p.data["track"] == "fiefdoms"
    assert p.data["left"] == 2
    expected = {"stark": 1, "lannister": 2, **OTHERS}
    assert dict(p.data["bids"]) == expected  # every other house; Targaryen's own is not there
    s = act(s, T, Choose("stark"))
    p = prompt(s, T)
    assert dict(p.data["bids"]) == {**expected, "stark": 2}
    assert p.data["left"] == 1
