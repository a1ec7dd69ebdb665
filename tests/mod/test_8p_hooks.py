"""The general hooks the 8-player slice of Mother of Dragons needed (docs/plugins.md:
``rule_unit_strength``, ``rule_march_reach``, ``rule_track_order``), each shown with a small
plugin of its own on the base game (``test_hook_<name>``, checked by tests/plugins/test_meta.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pytest

from tests.builders import act, blank, order, put, run
from westeros import hookimpl
from westeros.engine import board, tracks
from westeros.engine.content import Ruleset
from westeros.engine.errors import IllegalMove
from westeros.engine.flow import apply
from westeros.engine.march import MarchTurn, ResolveMarch
from westeros.engine.state import State, Unit

Factory = Callable[..., Ruleset]


class Veterans:
    """Footmen are worth 3 from round 5 on."""

    @hookimpl
    def rule_unit_strength(self, options: Mapping[str, Any]) -> Any:
        def strength(state: State, unit: Unit, value: int) -> int:
            return 3 if unit.type == "footman" and state.round >= 5 else value

        return strength


class Riders:
    """A group of only knights may ride to King's Landing (or, uselessly, a sea) from anywhere."""

    @hookimpl
    def rule_march_reach(self, options: Mapping[str, Any]) -> Any:
        def reach(state: State, house: str, area: str, types: tuple[str, ...]) -> Iterable[str]:
            return ["kings-landing", "the-narrow-sea"] if set(types) == {"knight"} else []

        return reach


class StarkFirst:
    """Stark keeps the first place on the Iron Throne track whatever happens."""

    @hookimpl
    def rule_track_order(self, options: Mapping[str, Any]) -> Any:
        def arrange(state: State, track: str, order: tuple[str, ...]) -> tuple[str, ...]:
            if track != tracks.IRON_THRONE:
                return order
            return ("stark", *tuple(h for h in order if h != "stark"))

        return arrange


def test_hook_rule_unit_strength(westeros_ruleset: Factory) -> None:
    rules = westeros_ruleset(Veterans())
    s = blank(rules, 3)
    footman = Unit("stark", "footman")
    assert board.unit_strength(s, footman, False) == 1
    s.round = 5
    assert board.unit_strength(s, footman, False) == 3
    assert board.unit_strength(s, footman._replace(routed=True), False) == 0  # routed: 0
    assert board.unit_strength(s, Unit("stark", "knight"), False) == 2


def test_hook_rule_march_reach(westeros_ruleset: Factory) -> None:
    rules = westeros_ruleset(Riders())
    s = blank(rules, 3)
    s.neutral.pop("kings-landing", None)
    put(s, "winterfell", "stark", "knight", "footman")
    order(s, "winterfell", "march+0")
    run(s, MarchTurn("stark"))
    for moves in (
        (("kings-landing", ("footman", "knight")),),  # a mixed group walks
        (("the-narrow-sea", ("knight",)),),  # a knight never stands at sea
    ):
        with pytest.raises(IllegalMove):
            apply(s, "stark", ResolveMarch("winterfell", moves))
    s = act(s, "stark", ResolveMarch("winterfell", (("kings-landing", ("knight",)),)))
    assert [u.type for u in s.units["kings-landing"]] == ["knight"]


def test_hook_rule_track_order(westeros_ruleset: Factory) -> None:
    rules = westeros_ruleset(StarkFirst())
    s = blank(rules, 3)
    tracks.move_to_top(s, tracks.IRON_THRONE, "lannister")
    assert s.tracks[tracks.IRON_THRONE][:2] == ("stark", "lannister")
    tracks.move_to_top(s, tracks.FIEFDOMS, "lannister")
    assert s.tracks[tracks.FIEFDOMS][0] == "lannister"
