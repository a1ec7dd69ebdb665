"""``board.unchanged``: inside a block on a state that stays as it is, ship transport reach
(5.3.6) is worked out once; another state, or the state after the block, is asked afresh."""

from __future__ import annotations

from tests.builders import blank, put
from westeros.engine import board
from westeros.engine.content import LAND, Ruleset
from westeros.engine.state import State, Unit


def shipped(rules: Ruleset) -> State:
    """A Stark footman in Winterfell with Stark ships in the Bay of Ice and the Sunset Sea."""
    s = blank(rules)
    put(s, "winterfell", "stark", "footman")
    put(s, "bay-of-ice", "stark", "ship")
    put(s, "sunset-sea", "stark", "ship")
    return s


def test_5_3_6_reach_inside_an_unchanged_block_is_the_reach_by_ship(rules: Ruleset) -> None:
    s = shipped(rules)
    with board.unchanged(s):
        first = board.reachable(s, "stark", "winterfell", LAND)
        first.discard("searoad-marches")  # the caller's copy; the next answer is whole
        again = board.reachable(s, "stark", "winterfell", LAND)
    assert {"searoad-marches", "flints-finger", "castle-black"} <= again
    assert again == board.reachable(s, "stark", "winterfell", LAND)


def test_5_3_6_a_changed_state_is_asked_afresh(rules: Ruleset) -> None:
    s = shipped(rules)
    with board.unchanged(s):
        assert "searoad-marches" in board.reachable(s, "stark", "winterfell", LAND)
        other = s.copy()
        board.remove_units(other, "sunset-sea", [Unit("stark", "ship")])
        assert "searoad-marches" not in board.reachable(other, "stark", "winterfell", LAND)
    board.remove_units(s, "sunset-sea", [Unit("stark", "ship")])
    assert "searoad-marches" not in board.reachable(s, "stark", "winterfell", LAND)
    assert "flints-finger" in board.reachable(s, "stark", "winterfell", LAND)
