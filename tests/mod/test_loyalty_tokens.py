"""Loyalty tokens and Targaryen's victory in 8-player Mother of Dragons games (RULES.md 11.6,
11.4.4): the starting token, the collection points, the points and the win at 7, the ranking
after round 10, and that every seat sees the tokens and the points."""

from __future__ import annotations

from tests.builders import act, put, run
from westeros.engine import victory
from westeros.engine.content import Ruleset
from westeros.engine.march import MarchTurn, ResolveMarch
from westeros.engine.round import CleanUp
from westeros.engine.setup import new_game
from westeros.engine.state import Order, State
from westeros.engine.view import player_view
from westeros.engine.westeros_phase import WesterosEnd

from .conftest import MOD
from .test_targaryen_cards import blank8

T = "targaryen"


def tokens(s: State) -> dict[str, int]:
    return dict(s.ext.get("loyalty_tokens", ()))


def with_tokens(rules: Ruleset, **areas: int) -> State:
    s = blank8(rules, 3)
    s.ext["loyalty_tokens"] = tuple(sorted((a.replace("_", "-"), n) for a, n in areas.items()))
    s.ext["loyalty_collected"] = 0
    return s


def test_11_6_1_one_token_starts_on_kings_landing_in_8_player_games(mod_rules: Ruleset) -> None:
    s = new_game(mod_rules, 8, 1, MOD, start=False)
    assert tokens(s) == {"kings-landing": 1}
    assert "loyalty_tokens" not in new_game(mod_rules, 7, 1, MOD, start=False).ext


def test_11_6_3_collected_after_any_houses_march(mod_rules: Ruleset) -> None:
    s = with_tokens(mod_rules, the_reach=2)
    s.power_tokens["the-reach"] = T  # Targaryen holds The Reach with a power token
    put(s, "winterfell", "stark", "footman")
    s.orders["winterfell"] = Order("stark", "march+0")
    run(s, MarchTurn("stark"))
    s = act(s, "stark", ResolveMarch("winterfell", (("castle-black", ("footman",)),)))
    assert tokens(s) == {}
    assert s.ext["loyalty_collected"] == 2


def test_12_50_targaryen_marches_in_and_keeps_the_points(mod_rules: Ruleset) -> None:
    s = with_tokens(mod_rules, the_reach=2, winterfell=1)
    put(s, "the-rhoyne", T, "dragon")
    s.orders["the-rhoyne"] = Order(T, "march+0")
    run(s, MarchTurn(T))
    s = act(s, T, ResolveMarch("the-rhoyne", (("the-reach", ("dragon",)),)))
    assert tokens(s) == {"winterfell": 1}  # tokens elsewhere stay
    s.units.pop("the-reach")  # Targaryen loses the area later: the points stay
    victory.consequences(s)
    assert s.ext["loyalty_collected"] == 2


def test_11_6_3_collected_at_the_end_of_the_westeros_phase(mod_rules: Ruleset) -> None:
    s = with_tokens(mod_rules, riverrun=1)
    put(s, "riverrun", T, "footman")
    run(s, WesterosEnd())
    assert tokens(s) == {} and s.ext["loyalty_collected"] == 1


def test_11_6_2_tokens_do_nothing_for_other_houses(mod_rules: Ruleset) -> None:
    s = with_tokens(mod_rules, riverrun=3)
    put(s, "riverrun", "stark", "footman")
    run(s, WesterosEnd())
    assert tokens(s) == {"riverrun": 3} and s.ext["loyalty_collected"] == 0


def test_11_6_4_pentos_adds_one_point_while_held(mod_rules: Ruleset) -> None:
    s = with_tokens(mod_rules)
    s.ext["loyalty_collected"] = 6
    put(s, "pentos", "stark", "footman")
    assert not victory.consequences(s)  # 6 points, Pentos held by Stark
    s.units.pop("pentos")
    assert victory.consequences(s)  # 6 + Pentos (Targaryen's home again) = 7
    assert s.winner == T


def test_11_6_5_seven_collected_tokens_win_at_once(mod_rules: Ruleset) -> None:
    s = with_tokens(mod_rules, riverrun=4)
    s.ext["loyalty_collected"] = 3
    put(s, "riverrun", T, "footman")
    run(s, WesterosEnd())
    assert s.winner == T


def test_11_6_4_targaryen_does_not_score_castles(mod_rules: Ruleset) -> None:
    s = with_tokens(mod_rules)
    for area in ("winterfell", "riverrun", "harrenhal", "pyke", "lannisport", "highgarden",
                 "sunspear"):  # fmt: skip
        put(s, area, T, "footman")
    assert not victory.consequences(s)
    assert s.winner is None


def test_11_6_5_round_10_compares_loyalty_with_castles(mod_rules: Ruleset) -> None:
    s = with_tokens(mod_rules)
    s.round = 10
    s.ext["loyalty_collected"] = 3
    put(s, "winterfell", "stark", "footman")
    put(s, "white-harbor", "stark", "footman")  # Stark: 2 castles < Targaryen's 3 points
    run(s, CleanUp())
    assert s.winner == T
    s = with_tokens(mod_rules)
    s.round = 10
    s.ext["loyalty_collected"] = 1
    put(s, "winterfell", "stark", "footman")
    put(s, "white-harbor", "stark", "footman")
    run(s, CleanUp())
    assert s.winner == "stark"


def test_11_4_4_pentos_garrison_returns_when_retaken(mod_rules: Ruleset) -> None:
    s = with_tokens(mod_rules)
    s.garrisons.pop("pentos", None)
    put(s, "pentos", "stark", "footman")
    victory.consequences(s)
    assert "pentos" not in s.garrisons  # held by Stark: nothing returns
    s.units.pop("pentos")
    put(s, "pentos", T, "footman")
    victory.consequences(s)
    assert s.garrisons["pentos"] == 2


def test_11_6_tokens_and_points_are_public(mod_rules: Ruleset) -> None:
    s = with_tokens(mod_rules, riverrun=2)
    s.ext["loyalty_collected"] = 4
    for seat in ("stark", T, None):
        ext = player_view(s, seat)["ext"]
        assert dict(ext["loyalty_tokens"]) == {"riverrun": 2}
        assert ext["loyalty_collected"] == 4
