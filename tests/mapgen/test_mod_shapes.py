"""Map shapes from plugins (DESIGN §4, RULES.md 1.1, 11.1): the ``register_map_shapes`` hook
draws a plugin's areas, redraws the areas it cuts and grows the canvas for a side board; the
Mother of Dragons boards (7 players, and the fact file's Essos areas of the 8-player board)
have a shape for every area, with borders that match the adjacency data."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from westeros import hookimpl
from westeros.engine.content import AreaDef, GameOption, MapShapes, Ruleset
from westeros.mapgen import LayoutError, bundled_maps, generate, load_layout, variant_options
from westeros.plugins import build_ruleset, load
from westeros.server import pages
from westeros_mother_of_dragons import content
from westeros_mother_of_dragons.essos import essos_areas

from .mod_boards import MOD, seven_player_rules
from .svgread import SVG, DrawnMap, read, stroked, touching
from .test_map import (
    MIN_BORDER,
    crossing_problems,
    frame_problems,
    separation_problems,
    tiling_problems,
    viewbox,
)

REPO = Path(__file__).resolve().parents[2]
BITE = "the-bite"
VALE = "the-vale-of-arryn"
PORT = "port-of-the-eyrie"


class Skagos:
    """A toy plugin adding Skagos, drawn through the hook (no layout file)."""

    NAME = "toy_skagos"

    def __init__(self, layout: dict[str, Any]) -> None:
        self.layout = layout

    @hookimpl
    def register_areas(self) -> list[AreaDef]:
        return [AreaDef("skagos", "Skagos", "land", crowns=1)]

    @hookimpl
    def register_adjacency(self) -> list[tuple[str, str]]:
        return [("skagos", "the-shivering-sea")]

    @hookimpl
    def register_map_shapes(self) -> list[MapShapes]:
        return [MapShapes(self.layout)]


class OptionalSkagos(Skagos):
    """Skagos only in games with the ``skagos`` option (like Mother of Dragons' boards)."""

    NAME = "toy_optional_skagos"

    @hookimpl
    def register_game_options(self) -> list[GameOption]:
        return [GameOption("skagos", "Skagos", False)]

    @hookimpl
    def plugin_in_game(self, options: Mapping[str, Any]) -> bool:
        return bool(options.get("skagos"))


def draw(rules: Ruleset, extra: list[Any]) -> DrawnMap:
    return read(generate(rules, load_layout(rules, extra=extra, autoload=False)))


def test_hook_register_map_shapes():
    """A toy plugin's area is drawn where its shapes say, touching only its neighbour."""
    toy = Skagos({"areas": {"skagos": {"seeds": [[[912, 140], [930, 150]]]}}})
    rules = build_ruleset(extra=[toy], autoload=False, strict=True)
    drawn = draw(rules, [toy])
    assert drawn.elements["skagos"].get("id") == "area-skagos"
    assert drawn.shared_length("skagos", "the-shivering-sea") >= MIN_BORDER
    regions = {a: drawn.shapes[a] for a in drawn.regions}
    assert [p for p in touching(regions) if "skagos" in p] == [("skagos", "the-shivering-sea")]
    assert crossing_problems(rules, drawn) == []


def test_map_shapes_can_grow_the_canvas_and_redraw_an_earlier_area():
    base = draw(build_ruleset(autoload=False), [])
    toy = Skagos(
        {
            "extend": [200, 0],
            "replace": {"the-shivering-sea": {"seeds": [[[1100, 100], [960, 250]]]}},
            "areas": {"skagos": {"seeds": [[[1150, 300]]]}},
        }
    )
    rules = build_ruleset(extra=[toy], autoload=False, strict=True)
    drawn = draw(rules, [toy])
    assert drawn.root.get("viewBox") == "0 0 1200 1700"
    assert drawn.shapes["skagos"].bounds[0] > 1000  # on the new room, east of the old frame
    assert drawn.shapes["the-shivering-sea"].bounds[2] > base.shapes["the-shivering-sea"].bounds[2]


def test_an_optional_map_shapes_file_is_left_out_when_its_areas_are_not_in_the_game():
    shapes = {"areas": {"skagos": {"seeds": [[[912, 140]]]}}}
    toy = OptionalSkagos({"optional": True, **shapes})
    rules = build_ruleset(extra=[toy], autoload=False, strict=True)  # Skagos not in this game
    assert "skagos" not in rules.areas
    assert "skagos" not in draw(rules, [toy]).elements
    with_it = build_ruleset({"skagos": True}, extra=[toy], autoload=False, strict=True)
    assert "skagos" in draw(with_it, [toy]).elements
    plain = OptionalSkagos(shapes)
    with pytest.raises(LayoutError, match="'skagos' is not in the ruleset"):
        load_layout(rules, extra=[plain], autoload=False)


def test_replacing_an_area_no_earlier_file_places_is_refused():
    misspelt = {"the-shivering-saa": {"seeds": [[[1, 1]]]}}
    toy = Skagos({"replace": misspelt, "areas": {"skagos": {"seeds": [[[912, 140]]]}}})
    rules = build_ruleset(extra=[toy], autoload=False, strict=True)
    with pytest.raises(LayoutError, match="the-shivering-saa"):
        load_layout(rules, extra=[toy], autoload=False)


@pytest.fixture(scope="module")
def seven() -> tuple[Ruleset, DrawnMap]:
    rules = seven_player_rules()
    return rules, draw(rules, [])


def test_11_1_every_area_of_the_seven_player_board_has_a_shape(seven: tuple[Ruleset, DrawnMap]):
    rules, drawn = seven
    assert sorted(drawn.elements) == sorted(rules.areas)
    assert {BITE, VALE} <= set(drawn.regions) and PORT in drawn.badges
    assert drawn.elements[BITE].findtext("{http://www.w3.org/2000/svg}title") == "The Bite"
    assert crossing_problems(rules, drawn) == []
    assert separation_problems(rules, drawn) == []


def test_11_1_the_bite_and_the_vale_touch_exactly_their_neighbours(
    seven: tuple[Ruleset, DrawnMap],
):
    rules, drawn = seven
    regions = {a: drawn.shapes[a] for a in drawn.regions}
    pairs = touching(regions)
    for area in (BITE, VALE):
        drawn_next = {b if a == area else a for a, b in pairs if area in (a, b)}
        assert drawn_next == {n for n in rules.adjacency[area] if n in regions}, area
    # The Bite cuts The Narrow Sea off White Harbor, Moat Cailin and The Twins (11.1).
    for land in ("white-harbor", "moat-cailin", "the-twins"):
        assert ("the-narrow-sea", land) not in pairs and (land, "the-narrow-sea") not in pairs


def test_11_1_the_essos_side_board_lies_east_of_the_narrow_sea_with_every_area_drawn(
    seven: tuple[Ruleset, DrawnMap],
):
    _rules, drawn = seven  # a Mother of Dragons board holds Essos (blocked without Targaryen)
    essos = [a["id"] for a in essos_areas(content.data())]
    assert {"pentos", "braavos", "volantis", "bay-of-pentos"} <= set(essos)
    assert set(essos) <= set(drawn.regions) | set(drawn.badges)
    sea_east = drawn.shapes["the-narrow-sea"].centroid.x
    assert all(drawn.shapes[a].bounds[0] > sea_east for a in essos if a in drawn.regions), essos


def test_11_1_the_mother_of_dragons_map_and_the_land_beyond_essos_cover_it_exactly(
    seven: tuple[Ruleset, DrawnMap],
):
    _rules, drawn = seven
    assert drawn.beyond is not None
    assert tiling_problems(drawn) == []


def test_issue37_norvos_the_rhoyne_and_volantis_end_at_a_border_not_at_the_frame(
    seven: tuple[Ruleset, DrawnMap],
):
    """Issue 37 point 4: "Norvos and the Rhoyne run off the map's right edge". The real
    board's Essos goes on east of them (11.1): the land beyond the board's edge is drawn there,
    hatched and belonging to no area, and every land area has a border of its own."""
    rules, drawn = seven
    assert frame_problems(rules, drawn) == []
    beyond = drawn.beyond
    assert beyond is not None
    w, _ = viewbox(drawn)
    assert beyond.bounds[2] == w and beyond.bounds[0] > drawn.shapes["pentos"].bounds[2]
    for area in ("norvos", "the-rhoyne", "volantis"):
        shared = drawn.shapes[area].boundary.intersection(beyond.buffer(0.05)).length
        assert shared >= MIN_BORDER, area
    group = next(el for el in drawn.root.iter(SVG + "g") if "beyond" in el.get("class", ""))
    assert group.get("data-area") is None and group.get("aria-hidden") == "true"
    assert not any(el.get("data-area") for el in group.iter()), "no part of it is an area"
    hatch = [el for el in group.iter(SVG + "path") if el.get("class") == "hatch"]
    assert len(hatch) == 1
    lines = stroked(hatch[0].get("d", ""))
    assert beyond.difference(lines.buffer(6)).area < 1, "hatched all over"
    assert lines.difference(beyond.buffer(0.1)).length < 0.5, "the hatching stays inside"


def test_the_shipped_maps_are_up_to_date_one_per_board_changing_option():
    maps = bundled_maps()
    assert variant_options() == list(MOD)
    for path, text in maps.items():
        shipped = REPO / path
        assert shipped.is_file(), f"missing {path}: run python -m westeros.mapgen"
        assert shipped.read_text("utf-8") == text, f"{path} is stale: run python -m westeros.mapgen"


def test_each_game_is_shown_the_map_that_draws_its_areas():
    loaded = load(autoload=False)
    seven_map = pages.map_svg(loaded, seven_player_rules())
    base_map = pages.map_svg(loaded, loaded.ruleset)
    assert 'data-area="the-bite"' in seven_map
    assert 'data-area="the-bite"' not in base_map
    assert 'data-area="winterfell"' in base_map
