"""Layout files (DESIGN §3-4): a plugin that adds areas ships their positions in
``data/layout.json`` beside its plugin module, and the generator draws them (RULES.md 1.1)."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from westeros.engine.content import Ruleset
from westeros.mapgen import LayoutError, generate, load_layout
from westeros.mapgen.layout import merge
from westeros.plugins import build_ruleset

from .svgread import read, touching
from .test_map import MIN_BORDER, crossing_problems, separation_problems, tiling_problems

SKAGOS_PLUGIN = """
from westeros import hookimpl
from westeros.engine.content import AreaDef


@hookimpl
def register_areas():
    return [AreaDef("skagos", "Skagos", "land", crowns=1)]


@hookimpl
def register_adjacency():
    return [("skagos", "the-shivering-sea")]
"""


def base_layout() -> dict[str, Any]:
    text = resources.files("westeros.base").joinpath("data", "layout.json").read_text("utf-8")
    return json.loads(text)


@pytest.fixture
def skagos(tmp_path: Path) -> Iterator[ModuleType]:
    """A single-file plugin adding the island of Skagos in the Shivering Sea."""
    path = tmp_path / "skagos_plugin.py"
    path.write_text(SKAGOS_PLUGIN, "utf-8")
    spec = importlib.util.spec_from_file_location("skagos_plugin", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules["skagos_plugin"] = module
    yield module
    sys.modules.pop("skagos_plugin", None)


def write_layout(plugin: ModuleType, data: dict[str, Any]) -> None:
    folder = Path(plugin.__file__ or "").parent / "data"
    folder.mkdir()
    (folder / "layout.json").write_text(json.dumps(data), "utf-8")


def test_1_1_a_plugin_area_is_drawn_from_the_positions_its_layout_file_gives(
    skagos: ModuleType,
):
    write_layout(skagos, {"areas": {"skagos": {"seeds": [[[912, 140], [930, 150]]]}}})
    rules = build_ruleset(extra=[skagos], autoload=False, strict=True)
    drawn = read(generate(rules, load_layout(rules, extra=[skagos])))
    assert drawn.elements["skagos"].get("id") == "area-skagos"
    assert drawn.shared_length("skagos", "the-shivering-sea") >= MIN_BORDER
    regions = {a: drawn.shapes[a] for a in drawn.regions}
    assert [p for p in touching(regions) if "skagos" in p] == [("skagos", "the-shivering-sea")]
    assert crossing_problems(rules, drawn) == []
    assert separation_problems(rules, drawn) == []


def test_1_1_a_plugin_area_without_a_position_is_refused_by_name(skagos: ModuleType):
    rules = build_ruleset(extra=[skagos], autoload=False, strict=True)
    with pytest.raises(LayoutError, match="skagos"):
        load_layout(rules, extra=[skagos])


def test_1_1_a_position_for_an_area_the_ruleset_lacks_is_refused(rules_no_ports: Ruleset):
    misspelt = {"areas": {"winterfel": {"seeds": [[[400, 300]]]}}}
    with pytest.raises(LayoutError, match="'winterfel' is not in the ruleset"):
        merge(rules_no_ports, [("base", base_layout()), ("typo", misspelt)])


def test_two_layout_files_placing_one_area_are_refused_naming_both(rules_no_ports: Ruleset):
    extra = {"areas": {"winterfell": {"seeds": [[[400, 300]]]}}}
    with pytest.raises(LayoutError, match=r"winterfell.*base.*other"):
        merge(rules_no_ports, [("base", base_layout()), ("other", extra)])


def test_two_layout_files_setting_the_canvas_are_refused(rules_no_ports: Ruleset):
    with pytest.raises(LayoutError, match="canvas"):
        merge(rules_no_ports, [("base", base_layout()), ("other", {"canvas": [9, 9], "areas": {}})])


@pytest.mark.parametrize(
    "entry",
    [
        {},
        {"seeds": []},
        {"seeds": [[]]},
        {"seeds": [[[1]]]},
        {"seeds": [[[1, "2"]]]},
        {"seeds": [[[1, True]]]},
        {"seeds": [[[1, 2]]], "badge": [1, 2]},
        {"badge": [1, 2], "colour": "red"},
        {"badge": [1, 2], "label": [1, 2]},
    ],
)
def test_malformed_layout_entries_are_refused(rules_no_ports: Ruleset, entry: dict[str, Any]):
    data = base_layout()
    data["areas"]["winterfell"] = entry
    with pytest.raises(LayoutError, match="winterfell"):
        merge(rules_no_ports, [("base", data)])


@pytest.mark.parametrize("beyond", [[], [[]], [[[1]]], [[[1, 2]], "edge"], {"x": 1}])
def test_malformed_land_beyond_the_board_is_refused(rules_no_ports: Ruleset, beyond: Any):
    data = {**base_layout(), "beyond": beyond}
    with pytest.raises(LayoutError, match="beyond"):
        merge(rules_no_ports, [("base", data)])


def test_1_1_land_beyond_the_board_from_a_layout_file_is_drawn_as_no_area(skagos: ModuleType):
    """A plugin's ``beyond`` seeds claim ground for no area: the areas still cover the rest of
    the map exactly, and the area next to it gets a border of its own there."""
    write_layout(
        skagos,
        {
            "beyond": [[[995, 20], [995, 300]]],
            "areas": {"skagos": {"seeds": [[[912, 140], [930, 150]]]}},
        },
    )
    rules = build_ruleset(extra=[skagos], autoload=False, strict=True)
    drawn = read(generate(rules, load_layout(rules, extra=[skagos])))
    assert sorted(drawn.elements) == sorted(rules.areas)
    assert drawn.beyond is not None and drawn.beyond.bounds[2] == 1000
    assert tiling_problems(drawn) == []
    assert (
        drawn.shapes["the-shivering-sea"].boundary.intersection(drawn.beyond.buffer(0.05)).length
        >= MIN_BORDER
    )
