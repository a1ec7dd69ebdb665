"""House Targaryen is always last on the three influence tracks (RULES.md 11.2.3): after a
Clash of Kings it wins outright, after a card that would move it up and after one that moves
another house down; it never holds a dominance token."""

from __future__ import annotations

import pytest

from tests.builders import act, blank, prompt, run
from westeros.engine import tracks
from westeros.engine.actions import Bid, Choose
from westeros.engine.bidding import TrackBid
from westeros.engine.content import Ruleset
from westeros.engine.state import State

TRACKS = (tracks.IRON_THRONE, tracks.FIEFDOMS, tracks.KINGS_COURT)


def eight(mod_rules: Ruleset) -> State:
    s = blank(mod_rules, 8)
    s.power = dict.fromkeys(s.houses, 10)
    return s


@pytest.mark.parametrize("track", TRACKS)
def test_11_2_3_targaryen_stays_last_after_outbidding_everyone(
    mod_rules: Ruleset, track: str
) -> None:
    s = eight(mod_rules)
    others = [h for h in s.houses if h != "targaryen"]
    run(s, TrackBid(track, s.houses, ()))
    for amount, house in enumerate(others):
        s = act(s, house, Bid(amount))
    s = act(s, "targaryen", Bid(10))
    assert s.tracks[track] == (*reversed(others), "targaryen")
    assert tracks.holder(s, track) == others[-1]  # the dominance token goes to the top bid
    assert s.power["targaryen"] == 0  # its bid is spent as usual (11.6.6)


def test_11_2_3_a_king_beyond_the_wall_cannot_lift_targaryen(mod_rules: Ruleset) -> None:
    s = eight(mod_rules)
    before = dict(s.tracks)
    card = mod_rules.wildling_cards["a-king-beyond-the-wall"]
    card.nights_watch(s, "targaryen")
    run(s)
    assert prompt(s, "targaryen") is not None
    s = act(s, "targaryen", Choose(tracks.IRON_THRONE))
    assert s.tracks == before


def test_11_2_3_a_house_moved_to_the_bottom_ends_just_above_targaryen(
    mod_rules: Ruleset,
) -> None:
    s = eight(mod_rules)
    card = mod_rules.wildling_cards["a-king-beyond-the-wall"]
    card.lowest_bidder(s, "baratheon")
    for track in TRACKS:
        assert s.tracks[track][-2:] == ("baratheon", "targaryen"), track
