"""The alternate dragon strength rounds (RULES.md 11.2.2 alternate tokens: rounds 2, 4, 7, 9,
10) with ``mod_alternate_dragon_tokens``, and Fire Made Flesh's early token (11.11)."""

from __future__ import annotations

from tests.builders import blank
from westeros.engine import board
from westeros.engine.state import Unit
from westeros.plugins import build_ruleset

from .conftest import MOD

DRAGON = Unit("targaryen", "dragon")
ALTERNATE = {**MOD, "mod_alternate_dragon_tokens": True}


def test_11_2_2_alternate_tokens_reach_the_box_in_rounds_2_4_7_9_10() -> None:
    printed, alternate = blank(build_ruleset(MOD), 8), blank(build_ruleset(ALTERNATE), 8)
    seen = []
    for round_number in (6, 7, 8, 9):
        printed.round = alternate.round = round_number
        seen.append(
            (
                board.unit_strength(printed, DRAGON, False),
                board.unit_strength(alternate, DRAGON, False),
            )
        )
    assert seen == [(3, 2), (3, 3), (4, 3), (4, 4)]


def test_11_11_fire_made_flesh_token_adds_strength_up_to_five() -> None:
    s = blank(build_ruleset(MOD), 8)
    s.round = 3
    s.ext["dragon_tokens_shifted"] = (10,)  # the token of round 10 shifted early
    assert board.unit_strength(s, DRAGON, False) == 2
    s.round = 10
    assert board.unit_strength(s, DRAGON, False) == 5
