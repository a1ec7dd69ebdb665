"""The AIs' answer to Targaryen's bid distribution (RULES.md 11.6.6): its bid is spent either
way, so it gives every Power token, one at a time, to the house with the fewest castles that
the revealed bids show it can still lift past another house, never to the castle leader;
when it lifts no one it stops. Targaryen stays last (11.2.3)."""

from __future__ import annotations

from tests.builders import put, run
from westeros.engine.content import Ruleset
from westeros_mother_of_dragons import targaryen_bids

from .test_deck_iv_ai import answered
from .test_targaryen_cards import blank8

T = "targaryen"


def test_11_6_6_targaryen_gives_its_bid_to_the_house_with_the_fewest_castles(
    mod_rules: Ruleset,
) -> None:
    s = blank8(mod_rules, 3)
    put(s, "sunspear", "tyrell", "footman")  # Martell holds no castle now
    bids = {
        "stark": 6,
        "greyjoy": 3,
        "lannister": 7,
        "baratheon": 4,
        "tyrell": 1,
        "martell": 2,
        "arryn": 0,
        T: 3,
    }
    step = targaryen_bids.offer(s, "iron_throne", bids)
    assert step is not None
    s = answered(run(s, step))
    # Martell's 2 + Targaryen's 3 = 5: past Baratheon (4) and Greyjoy (3)
    assert s.tracks["iron_throne"] == (
        "lannister",
        "stark",
        "martell",
        "baratheon",
        "greyjoy",
        "tyrell",
        "arryn",
        T,
    )


def distributed(rules: Ruleset, bids: dict[str, int]) -> tuple[str, ...]:
    """The Iron Throne track after the AI distributes Targaryen's bid, Tyrell leading with
    Highgarden and Sunspear (Martell holds no castle, every other house its home)."""
    s = blank8(rules, 3)
    put(s, "sunspear", "tyrell", "footman")
    step = targaryen_bids.offer(s, "iron_throne", bids)
    assert step is not None
    return answered(run(s, step)).tracks["iron_throne"]


def test_11_6_6_a_weakest_house_no_bid_can_lift_gets_nothing_the_next_one_does(
    mod_rules: Ruleset,
) -> None:
    # Martell (no castle) at 0 + 2 passes no one; Baratheon's 3 + 2 passes Arryn's 4.
    bids = {"martell": 0, "baratheon": 3, "arryn": 4, "greyjoy": 9, "stark": 11}
    track = distributed(mod_rules, {**bids, "lannister": 13, "tyrell": 15, T: 2})
    assert track == (
        "tyrell",
        "lannister",
        "stark",
        "greyjoy",
        "baratheon",
        "arryn",
        "martell",
        T,
    )


def test_11_6_6_targaryen_never_lifts_the_castle_leader_past_another_house(
    mod_rules: Ruleset,
) -> None:
    # Tyrell's 13 + 2 would pass Lannister's 14; no other house can pass anyone with 2.
    bids = {"martell": 0, "baratheon": 3, "arryn": 6, "greyjoy": 9, "stark": 11}
    track = distributed(mod_rules, {**bids, "lannister": 14, "tyrell": 13, T: 2})
    assert track == (
        "lannister",
        "tyrell",
        "stark",
        "greyjoy",
        "arryn",
        "baratheon",
        "martell",
        T,
    )
