"""The general hooks the Mother of Dragons plugin needed (docs/plugins.md), each shown with a
small plugin of its own on the real engine (``test_hook_<name>``, checked by
tests/plugins/test_meta.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from tests.builders import blank, put
from westeros import hookimpl
from westeros.engine import board
from westeros.engine.content import LAND, SEA, AreaDef, GameOption, Ruleset
from westeros.engine.setup import new_game
from westeros.plugins import PluginError

Factory = Callable[..., Ruleset]


class Harrenhal:
    """Harrenhal as a stronghold, only in games with the ``great_harrenhal`` option."""

    NAME = "great-harrenhal"

    @hookimpl
    def register_game_options(self) -> list[GameOption]:
        return [GameOption("great_harrenhal", "Great Harrenhal", False)]

    @hookimpl
    def plugin_in_game(self, options: Mapping[str, Any]) -> bool:
        return bool(options.get("great_harrenhal"))

    @hookimpl
    def register_area_overrides(self) -> list[AreaDef]:
        return [AreaDef("harrenhal", "Harrenhal", LAND, castle=2, crowns=2, barrels=1)]


def test_hook_plugin_in_game(westeros_ruleset: Factory) -> None:
    off = westeros_ruleset(Harrenhal())
    on = westeros_ruleset(Harrenhal(), options={"great_harrenhal": True})
    assert off.areas["harrenhal"].castle == 1  # the base board: the plugin stays out
    assert "great_harrenhal" in off.options  # ... but the new-game screen still offers it
    assert "great-harrenhal" in dict(off.plugins)  # loaded, recorded, just not in this game
    assert on.areas["harrenhal"].castle == 2


def test_hook_register_area_overrides(westeros_ruleset: Factory, rules: Ruleset) -> None:
    great = westeros_ruleset(Harrenhal(), options={"great_harrenhal": True})
    area = great.areas["harrenhal"]
    assert (area.castle, area.crowns, area.barrels) == (2, 2, 1)
    assert len(great.areas) == len(rules.areas)  # replaced, not added
    barrels = []
    for ruleset in (rules, great):
        s = new_game(ruleset, 3, 1, {"great_harrenhal": True}, start=False)
        s.power_tokens["harrenhal"] = "stark"
        barrels.append(board.barrels(s, "stark"))
    assert barrels[1] == barrels[0] + 1  # the override's barrel counts for its holder (1.7.4)


class NoRiverCrossing:
    NAME = "no-river-crossing"

    @hookimpl
    def register_removed_adjacency(self) -> list[tuple[str, str]]:
        return [("riverrun", "harrenhal")]


def test_hook_register_removed_adjacency(westeros_ruleset: Factory, rules: Ruleset) -> None:
    assert "harrenhal" in rules.adjacency["riverrun"]
    cut = westeros_ruleset(NoRiverCrossing())
    assert "harrenhal" not in cut.adjacency["riverrun"]
    assert "riverrun" not in cut.adjacency["harrenhal"]
    s = blank(cut)
    put(s, "riverrun", "lannister", "footman")
    assert "harrenhal" not in board.reachable(s, "lannister", "riverrun", LAND)


class Nowhere:
    NAME = "nowhere"

    @hookimpl
    def register_area_overrides(self) -> list[AreaDef]:
        return [AreaDef("the-summer-isles", "The Summer Isles", SEA)]


def test_an_override_of_an_unknown_area_disables_its_plugin(westeros_ruleset: Factory) -> None:
    with pytest.raises(PluginError, match="area override 'the-summer-isles' names an unknown"):
        westeros_ruleset(Nowhere())
