"""The strong AI's evaluation in 8-player games (RULES.md 11.6.4): Targaryen is scored by its
loyalty points, the engine's victory score for it, and not by the castles it holds."""

from __future__ import annotations

import pytest

from tests.builders import put
from westeros.ai.evaluation import scores
from westeros.engine.content import Ruleset

from .test_targaryen_cards import blank8

T = "targaryen"


def test_11_6_4_targaryen_is_scored_by_loyalty_points_not_castles(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules, 3)
    s.ext["loyalty_collected"] = 0
    before = scores(s)[T]
    s.ext["loyalty_collected"] = 3
    assert scores(s)[T] - before == pytest.approx(3.0)  # three points: three castles
    put(s, "harrenhal", T, "footman")
    taken = scores(s)
    put(s, "riverrun", T, "footman")
    # a second castle adds only what its unit and land area are worth, never a castle
    assert scores(s)[T] - taken[T] < 0.5
