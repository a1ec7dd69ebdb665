"""Mother of Dragons edge cases of RULES.md 12 that no other test plays out as written
(12.46); the other MoD items of 12 are covered where docs/mother_of_dragons_rules.md says."""

from __future__ import annotations

from tests.engine.test_combat import fight, hand
from tests.engine.test_house_cards import strength
from westeros.engine import board
from westeros.engine.content import Ruleset

from .test_targaryen_cards import blank8

T = "targaryen"


def test_12_46_a_lone_dragon_attacked_in_round_1_adds_nothing(mod_rules: Ruleset) -> None:
    """Stark attacks The Rhoyne from Myr with one footman and Robb Stark (3) against a lone
    dragon and Arstan Whitebeard (3): 1 + 3 = 4 against 0 + 3 = 3, Stark wins."""
    s = blank8(mod_rules, 1)
    put_units = (("myr", "stark", "footman"), ("the-rhoyne", T, "dragon"))
    for area, house, unit in put_units:
        board.add_units(s, area, house, [unit])
    hand(s, "stark", "robb-stark")
    hand(s, T, "arstan-whitebeard")
    s = fight(s, "stark", "myr", "the-rhoyne")
    assert strength(s) == (4, 3)
