"""The victory track in the view of Mother of Dragons games (RULES.md 1.9.1, 11.6.4):
Targaryen's score is its loyalty points, never its castle areas, the same for every seat."""

from __future__ import annotations

from tests.builders import put, run
from westeros.engine.content import Ruleset
from westeros.engine.setup import new_game
from westeros.engine.view import player_view
from westeros.engine.westeros_phase import WesterosEnd

from .conftest import MOD
from .test_targaryen_cards import blank8

T = "targaryen"
OTHERS = ("stark", "greyjoy", "lannister", "baratheon", "tyrell", "martell", "arryn")


def test_11_6_4_the_view_scores_targaryen_by_loyalty(mod_rules: Ruleset) -> None:
    s = blank8(mod_rules)
    s.ext["loyalty_tokens"] = (("riverrun", 2),)
    s.ext["loyalty_collected"] = 3
    put(s, "winterfell", T, "footman")  # a stronghold: no point for Targaryen
    put(s, "riverrun", T, "footman")
    put(s, "white-harbor", "stark", "footman")  # Stark: White Harbor for Winterfell
    castles = {**dict.fromkeys(OTHERS, 1), T: 3}  # Targaryen: Pentos, Winterfell, Riverrun
    points = {**dict.fromkeys(OTHERS, 1), T: 4}  # 3 collected + Pentos held (11.6.4)
    for seat in ("stark", T, None):
        track = player_view(s, seat)["victory"]
        assert track == {"castles": castles, "points": points, "by_castles": False, "goal": 7}
    run(s, WesterosEnd())  # collects the 2 tokens in Riverrun (11.6.3)
    assert player_view(s, "stark")["victory"]["points"][T] == 6


def test_1_9_1_without_targaryen_every_house_scores_castles(mod_rules: Ruleset) -> None:
    s = new_game(mod_rules, 7, 1, MOD, start=False)
    s.units.clear()
    s.power_tokens.clear()
    homes = dict.fromkeys(OTHERS, 1)  # each house holds its home area alone
    assert player_view(s, None)["victory"] == {
        "castles": homes,
        "points": homes,
        "by_castles": True,
        "goal": 7,
    }
