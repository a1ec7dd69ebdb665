"""The ``rule_victory_points`` hook (RULES.md 1.9.1, 9.1, 9.2) with a toy plugin: a house
scored by favour instead of castles wins at 7 favour, and castles no longer make it win."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tests.builders import blank, put
from westeros import hookimpl
from westeros.engine import victory
from westeros.engine.content import Ruleset
from westeros.engine.state import State

Factory = Callable[..., Ruleset]


def favour(state: State, house: str) -> int | None:
    return state.ext.get("favour") if house == "stark" else None


class Favour:
    NAME = "favour"

    @hookimpl
    def rule_victory_points(self, options: Mapping[str, Any]) -> Callable[..., Any]:
        return favour


CASTLES = ("winterfell", "the-eyrie", "riverrun", "harrenhal", "pyke", "lannisport", "highgarden")


def test_hook_rule_victory_points(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(Favour()))
    s.ext["favour"] = 6
    assert not victory.consequences(s)
    s.ext["favour"] = 7
    assert victory.consequences(s)
    assert s.winner == "stark"


def test_hook_rule_victory_points_replaces_castles(westeros_ruleset: Factory) -> None:
    s = blank(westeros_ruleset(Favour()))
    s.ext["favour"] = 0
    for area in CASTLES:
        put(s, area, "stark", "footman")
    put(s, "dragonstone", "lannister", "footman")
    assert not victory.consequences(s)
    assert victory.ranking(s)[0] == "lannister"  # 1 castle beats 7 castles scored 0 favour
