"""The bundled SVG map (DESIGN §4): every area clickable and labelled, borders that match the
adjacency data (RULES.md 1.1.1), islands (1.1.2), the Wall (1.1.3), icons (1.1.4-1.1.5) and
ports (1.1.7, 6.1.1). Everything is read back from the SVG text, as a browser would see it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import shapely
from shapely.geometry import box
from shapely.geometry.base import BaseGeometry

from westeros.engine.content import LAND, Ruleset
from westeros.mapgen import OUTPUT, bundled_map

from .svgread import (
    SVG,
    DrawnMap,
    classes,
    filled,
    icon_box,
    read,
    text_box,
    text_lines,
    touching,
)

REPO = Path(__file__).resolve().parents[2]
MIN_BORDER = 10.0
"""A crossing between two regions must run at least this long (in map units; the map is
1000 units wide) to be seen and clicked on."""


@pytest.fixture(scope="module")
def svg_text() -> str:
    return bundled_map()


@pytest.fixture(scope="module")
def drawn(svg_text: str) -> DrawnMap:
    return read(svg_text)


@pytest.fixture(scope="module")
def drawn_no_ports() -> DrawnMap:
    return read(bundled_map(disable=["westeros_ports"]))


def crossing_problems(rules: Ruleset, drawn: DrawnMap) -> list[str]:
    """Adjacent pairs (1.1.1) drawn without a visible crossing between them."""
    problems = []
    for a in sorted(rules.adjacency):
        for b in sorted(rules.adjacency[a]):
            if a > b:
                continue
            if a in drawn.badges or b in drawn.badges:
                continue
            length = drawn.shared_length(a, b)
            if length < MIN_BORDER:
                problems.append(f"{a} / {b}: shared border {length:.1f}")
    return problems


def separation_problems(rules: Ruleset, drawn: DrawnMap) -> list[str]:
    """Touching regions that are not adjacent (1.1.1) but lack a river or impassable border
    covering their whole shared edge."""
    regions = {a: drawn.shapes[a] for a in drawn.regions}
    separators = drawn.separators()
    problems = []
    for a, b in touching(regions):
        if b in rules.adjacency[a]:
            continue
        edge = regions[a].boundary.intersection(regions[b].buffer(0.05))
        wanted = "river" if rules.domain[a] == LAND and rules.domain[b] == LAND else "impassable"
        lines = [line for kind, pair, line in separators if kind == wanted and pair == {a, b}]
        if edge.length == 0:
            problems.append(f"{a} / {b}: touch at a point")
        elif not lines:
            problems.append(f"{a} / {b}: no {wanted} drawn")
        else:
            uncovered = edge.difference(shapely.union_all(lines).buffer(0.5)).length
            if uncovered > 0.5:
                problems.append(f"{a} / {b}: {uncovered:.1f} of the edge has no {wanted}")
    return problems


def viewbox(drawn: DrawnMap) -> tuple[float, float]:
    """The map's width and height (its viewBox starts at 0 0)."""
    _, _, w, h = (float(v) for v in drawn.root.get("viewBox", "").split())
    return w, h


def wall(drawn: DrawnMap) -> BaseGeometry:
    """What the Wall paints (empty on a map without it)."""
    walls = [el for el in drawn.root.iter(f"{SVG}g") if "wall" in classes(el)]
    paths = [filled(g.find(f"{SVG}path").get("d", "")) for g in walls]  # type: ignore[union-attr]
    return shapely.union_all(paths)


def tiling_problems(drawn: DrawnMap) -> list[str]:
    """What keeps the regions and the land beyond the board (if any) from covering the map
    exactly once: a shape that is not one clean polygon, a gap or an overlap."""
    w, h = viewbox(drawn)
    shapes = {a: drawn.shapes[a] for a in drawn.regions}
    if drawn.beyond is not None:
        shapes["(beyond the board)"] = drawn.beyond
    problems = [
        f"{name} is not one clean shape"
        for name, shape in shapes.items()
        if not (shape.is_valid and shape.geom_type == "Polygon")
    ]
    overlap = sum(s.area for s in shapes.values()) - w * h
    if abs(overlap) > 1e-6 * w * h:
        problems.append(f"the shapes cover {overlap:+.1f} units more than the map")
    gaps = shapely.union_all(list(shapes.values())).symmetric_difference(box(0, 0, w, h)).area
    if gaps >= 1e-3 * w * h:
        problems.append(f"{gaps:.1f} units of the map are covered by no shape")
    return problems


def frame_problems(rules: Ruleset, drawn: DrawnMap) -> list[str]:
    """Land areas whose outline runs along the map's frame: there the area has no border of
    its own and seems to run off the map. Where the real board goes on past a land area, our
    map draws the land beyond the board instead (the east of Essos); the top of Castle Black
    is the Wall (1.1.3), its border on the board."""
    w, h = viewbox(drawn)
    frame = box(0, 0, w, h).exterior.buffer(0.05)
    the_wall = wall(drawn).buffer(0.05)
    problems = []
    for area in drawn.regions:
        if rules.domain[area] != LAND:
            continue
        edge = drawn.shapes[area].boundary.intersection(frame).difference(the_wall)
        if edge.length > 0.5:
            problems.append(f"{area}: {edge.length:.0f} units along the frame")
    return problems


def test_svg_parses_with_a_viewbox_and_no_external_references(svg_text: str, drawn: DrawnMap):
    assert drawn.root.tag == f"{SVG}svg"
    x, y, w, h = (float(v) for v in drawn.root.get("viewBox", "").split())
    assert (x, y) == (0, 0) and w > 0 and h > w, "a tall map: north at the top"
    assert drawn.root.get("width") is None and drawn.root.get("height") is None, "scales freely"
    for el in drawn.root.iter():
        assert not el.tag.endswith(("image", "script", "foreignObject")), el.tag
        for name, value in el.attrib.items():
            assert not name.endswith("href"), (el.tag, name, value)
    body = svg_text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert not re.search(r"https?:|@import|url\(", body)


def test_1_1_every_area_is_one_clickable_element_with_title_and_label(
    rules: Ruleset, drawn: DrawnMap
):
    assert sorted(drawn.elements) == sorted(rules.areas)
    ids = [el.get("id") for el in drawn.root.iter() if el.get("id")]
    for area in rules.areas.values():
        assert ids.count(f"area-{area.id}") == 1, area.id
        el = drawn.elements[area.id]
        assert el.get("id") == f"area-{area.id}"
        assert "area" in classes(el)
        assert el.find(f"{SVG}title").text == area.name  # type: ignore[union-attr]
        labels = [t for t in el.iter(f"{SVG}text") if "label" in classes(t)]
        assert len(labels) == 1, area.id
        words = " ".join(text_lines(labels[0]))
        assert words == (area.name if area.kind != "port" else "Port"), area.id
        assert [c for c in el if "area-shape" in classes(c)], f"{area.id} has nothing to click"


def test_1_1_land_and_sea_regions_are_told_apart_by_class(rules: Ruleset, drawn: DrawnMap):
    for area in drawn.regions:
        domain = "land" if rules.domain[area] == LAND else "sea"
        assert domain in classes(drawn.elements[area]), area
        assert ({"land", "sea"} - {domain}).isdisjoint(classes(drawn.elements[area])), area


def test_1_1_regions_tile_the_map_without_gaps_or_overlaps(drawn: DrawnMap):
    assert drawn.beyond is None, "the base board has no land beyond its edge"
    assert tiling_problems(drawn) == []


def test_1_1_no_land_area_runs_into_the_map_frame(rules: Ruleset, drawn: DrawnMap):
    """Every land area has a border of its own on every side: only seas meet the frame, and
    Castle Black the Wall (issue 37 point 4)."""
    assert frame_problems(rules, drawn) == []


def test_1_1_1_every_adjacent_pair_of_regions_shares_a_visible_border(
    rules: Ruleset, drawn: DrawnMap
):
    assert crossing_problems(rules, drawn) == []


def test_1_1_1_touching_regions_that_are_not_adjacent_are_separated(
    rules: Ruleset, drawn: DrawnMap
):
    assert separation_problems(rules, drawn) == []


def test_1_1_1_no_river_or_impassable_border_is_drawn_across_a_crossing(
    rules: Ruleset, drawn: DrawnMap
):
    separators = drawn.separators()
    assert any(kind == "river" for kind, _, _ in separators), "the map shows rivers"
    for kind, pair, line in separators:
        a, b = sorted(pair)
        assert b not in rules.adjacency[a], f"{kind} between adjacent {a} and {b}"
        on_edge = line.difference(drawn.shapes[a].boundary.buffer(0.5))
        assert on_edge.length < 0.5, f"{kind} {a} / {b} strays off their shared edge"


def test_1_1_2_islands_touch_no_other_land(rules: Ruleset, drawn: DrawnMap):
    islands = [
        a
        for a in drawn.regions
        if rules.domain[a] == LAND and all(rules.domain[n] != LAND for n in rules.adjacency[a])
    ]
    assert sorted(islands) == ["dragonstone", "pyke", "the-arbor"]
    for island in islands:
        for other in drawn.regions:
            if other != island and rules.domain[other] == LAND:
                assert not drawn.shapes[island].intersects(drawn.shapes[other]), (island, other)


def test_1_1_3_the_wall_runs_along_the_top_edge_of_castle_black(drawn: DrawnMap):
    assert len([el for el in drawn.root.iter(f"{SVG}g") if "wall" in classes(el)]) == 1
    the_wall = wall(drawn)
    assert the_wall.bounds[1] == 0, "at the very top edge"
    assert the_wall.difference(drawn.shapes["castle-black"]).area < 1
    assert the_wall.length > 0.3 * drawn.shapes["castle-black"].bounds[2]


def test_1_1_4_1_1_5_icons_show_castles_crowns_and_barrels(rules: Ruleset, drawn: DrawnMap):
    for area in drawn.regions:
        found = [g.get("data-icon") for g in drawn.elements[area].iter() if g.get("data-icon")]
        definition = rules.areas[area]
        assert found.count("castle") == (definition.castle == 1), area
        assert found.count("stronghold") == (definition.castle == 2), area
        assert found.count("crown") == definition.crowns, area
        assert found.count("barrel") == definition.barrels, area


def test_1_1_labels_and_icons_sit_inside_their_area_clear_of_port_badges(drawn: DrawnMap):
    badges = [drawn.shapes[b] for b in drawn.badges]
    problems = []
    for area in drawn.regions:
        el = drawn.elements[area]
        boxes = [text_box(t) for t in el.iter(f"{SVG}text")]
        boxes += [icon_box(g) for g in el if g.get("data-icon")]
        for rect in boxes:
            outside = rect.difference(drawn.shapes[area]).area
            if outside >= 1.0:
                problems.append(f"{area}: label or icon spills {outside:.1f} units outside")
            if any(rect.intersects(b) for b in badges):
                problems.append(f"{area}: label or icon covered by a port")
    assert problems == []


def test_1_1_7_6_1_1_each_port_straddles_the_coast_of_its_land_and_sea(
    rules: Ruleset, drawn: DrawnMap
):
    assert len(drawn.badges) == 8
    for port in drawn.badges:
        attrs = rules.areas[port].attrs
        badge = drawn.shapes[port]
        for area in (attrs["port_of"], attrs["port_sea"]):
            assert badge.intersection(drawn.shapes[area]).area > 0.25 * badge.area, (port, area)
        for other in drawn.regions:
            if other not in (attrs["port_of"], attrs["port_sea"]):
                assert badge.intersection(drawn.shapes[other]).area < 1e-6, (port, other)
        others = [drawn.shapes[p] for p in drawn.badges if p != port]
        assert not any(badge.intersects(o) for o in others), port


def test_6_the_map_without_the_ports_plugin_has_no_ports_and_keeps_its_borders(
    rules_no_ports: Ruleset, drawn_no_ports: DrawnMap
):
    assert drawn_no_ports.badges == []
    assert sorted(drawn_no_ports.elements) == sorted(rules_no_ports.areas)
    assert crossing_problems(rules_no_ports, drawn_no_ports) == []
    assert separation_problems(rules_no_ports, drawn_no_ports) == []


def test_bundled_map_file_is_up_to_date_with_the_generator(svg_text: str):
    shipped = REPO / OUTPUT
    assert shipped.is_file(), f"missing {OUTPUT}: run python -m westeros.mapgen"
    assert shipped.read_bytes().decode("utf-8") == svg_text, (
        f"{OUTPUT} is stale: run python -m westeros.mapgen from the repository root"
    )


def test_cli_writes_the_same_bytes_under_another_hash_seed(tmp_path: Path, svg_text: str):
    out = tmp_path / "map.svg"
    env = {**os.environ, "PYTHONHASHSEED": "4242"}
    done = subprocess.run(
        [sys.executable, "-m", "westeros.mapgen", "--out", str(out)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().decode("utf-8") == svg_text
    check = subprocess.run(
        [sys.executable, "-m", "westeros.mapgen", "--check", "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stderr
    out.write_text(svg_text.replace("Winterfell", "Winterhell"), "utf-8")
    stale = subprocess.run(
        [sys.executable, "-m", "westeros.mapgen", "--check", "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert stale.returncode == 1
    assert "out of date" in stale.stderr
