"""The AIs' answer to Targaryen's bid distribution (RULES.md 11.6.6): its bid is spent either
way, so it gives every Power token, one at a time, to the house with the fewest castles,
lifting it past the leaders on the track; Targaryen stays last (11.2.3)."""

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
