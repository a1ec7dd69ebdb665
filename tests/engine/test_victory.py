"""Victory (RULES.md 9): the instant win at 7 castle areas and every end-of-game tie-breaker."""

from __future__ import annotations

from tests.builders import blank, put, run
from westeros.engine import board, is_over, result
from westeros.engine.content import Ruleset
from westeros.engine.round import CleanUp
from westeros.engine.state import State
from westeros.engine.victory import consequences, ranking
from westeros.engine.view import player_view


def final(state: State) -> list[str]:
    """Play Clean Up of round 10 and return the final ranking (9.2)."""
    state.round = 10
    run(state, CleanUp())
    assert is_over(state)
    ranked = result(state)
    assert ranked is not None
    return ranked


def three(rules: Ruleset) -> State:
    """A 3-player board (Baratheon, Lannister, Stark) holding only their home areas."""
    s = blank(rules, 3)
    for house in s.houses:
        assert board.castle_count(s, house) == 1  # the printed home token (1.3.3)
    return s


def test_9_1_seven_castle_areas_win_at_once(rules: Ruleset) -> None:
    s = three(rules)
    for area in (
        "white-harbor",
        "moat-cailin",
        "seagard",
        "flints-finger",
        "riverrun",
        "harrenhal",
    ):
        put(s, area, "stark", "footman")
    assert board.castle_count(s, "stark") == 7
    assert consequences(s) is True
    assert s.winner == "stark" and s.stack == ()


def test_9_1_six_castle_areas_do_not_win(rules: Ruleset) -> None:
    s = three(rules)
    for area in ("white-harbor", "moat-cailin", "seagard", "flints-finger", "riverrun"):
        put(s, area, "stark", "footman")
    assert board.castle_count(s, "stark") == 6
    assert consequences(s) is False
    assert s.winner is None


def test_9_1_1_two_houses_reaching_seven_at_once_are_ranked_by_9_2(rules: Ruleset) -> None:
    s = three(rules)
    for area in (
        "white-harbor",
        "moat-cailin",
        "seagard",
        "flints-finger",
        "riverrun",
        "harrenhal",
    ):
        put(s, area, "stark", "footman")
    for area in ("crackclaw-point", "kings-landing", "storms-end", "highgarden", "oldtown"):
        s.blocked = s.blocked - {area}
        s.neutral.pop(area, None)
        put(s, area, "baratheon", "footman")
    put(s, "sunspear", "baratheon", "footman")
    s.blocked = s.blocked - {"sunspear"}
    assert board.castle_count(s, "baratheon") == 7
    put(s, "kingswood", "baratheon", "footman")  # one more land area than Stark
    assert board.land_count(s, "baratheon") > board.land_count(s, "stark")
    consequences(s)
    assert s.winner == "baratheon"


def test_9_2_most_castle_areas_wins_after_round_10(rules: Ruleset) -> None:
    s = three(rules)
    put(s, "seagard", "lannister", "footman")
    for area in ("blackwater", "stoney-sept", "kingswood"):
        put(s, area, "stark", "footman")  # more land areas, but fewer castles
    assert final(s)[0] == "lannister"


def test_9_2_1_tie_on_castles_most_land_areas_wins(rules: Ruleset) -> None:
    s = three(rules)
    put(s, "kingswood", "stark", "footman")
    s.power["lannister"] = 15
    assert final(s)[0] == "stark"


def test_9_2_2_tie_on_castles_and_land_highest_supply_wins(rules: Ruleset) -> None:
    s = three(rules)
    s.supply = {"baratheon": 1, "lannister": 4, "stark": 2}
    s.power["stark"] = 15
    assert final(s)[0] == "lannister"


def test_9_2_3_tie_on_supply_too_most_available_power_wins(rules: Ruleset) -> None:
    s = three(rules)
    s.supply = {"baratheon": 2, "lannister": 2, "stark": 2}
    s.power = {"baratheon": 3, "lannister": 4, "stark": 9}
    assert final(s) == ["stark", "lannister", "baratheon"]


def test_9_2_4_full_tie_goes_to_the_higher_house_on_the_iron_throne_track(rules: Ruleset) -> None:
    s = three(rules)
    s.supply = {h: 2 for h in s.houses}
    s.power = {h: 5 for h in s.houses}
    s.tracks["iron_throne"] = ("stark", "lannister", "baratheon")
    assert final(s) == ["stark", "lannister", "baratheon"]
    assert ranking(s) == ["stark", "lannister", "baratheon"]


def test_9_1_a_captured_home_area_counts_for_the_captor_only_while_it_holds_it(
    rules: Ruleset,
) -> None:
    s = three(rules)
    put(s, "winterfell", "lannister", "footman")
    assert board.castle_count(s, "lannister") == 2
    assert board.castle_count(s, "stark") == 0
    s.units.pop("winterfell")
    assert board.castle_count(s, "stark") == 1  # the printed token takes it back (1.3.3)


def test_1_9_1_the_view_carries_the_victory_track_as_the_engine_counts_it(rules: Ruleset) -> None:
    s = three(rules)
    for area in ("white-harbor", "moat-cailin", "riverrun", "karhold", "the-twins"):
        put(s, area, "stark", "footman")  # 2 castles, 1 stronghold, 2 areas without either
    put(s, "harrenhal", "lannister", "footman")
    put(s, "stoney-sept", "lannister", "footman")
    s.power_tokens["seagard"] = "lannister"  # a stronghold held by a power token (1.3.1)
    expected = {"baratheon": 1, "lannister": 3, "stark": 4}
    for seat in ("stark", "baratheon", None):  # public: every seat and spectators alike
        track = player_view(s, seat)["victory"]
        assert track == {"castles": expected, "points": expected, "by_castles": True, "goal": 7}
