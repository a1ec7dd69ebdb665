"""Region shapes from chosen seed positions: a Voronoi diagram of the seed points, each area the
union of its seeds' cells, borders smoothed as shared chains so neighbours still fit exactly.

Every coordinate comes from the layout files (never from traced art)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString, MultiLineString, MultiPoint, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from .layout import Layout

SEED_STEP = 9.0
"""Seed polylines are sampled every this many units."""
SIMPLIFY = 1.5
"""Douglas-Peucker tolerance applied to each border chain before smoothing."""
SMOOTH_ROUNDS = 3
"""Rounds of Chaikin corner cutting applied to each border chain."""
TOLERANCE = 0.25
"""Douglas-Peucker tolerance applied to each smoothed chain (far below a pixel at any zoom that
shows the whole map), to keep the SVG small."""


BEYOND = "(beyond the board)"
"""The key of the land beyond the board among the raw and smoothed shapes (never an area id)."""


class GeometryError(ValueError):
    """The seeds do not produce one usable region per area."""


@dataclass(frozen=True, slots=True)
class MapGeometry:
    """The drawn map: one polygon per region, borders between touching regions, the point
    on the coast where each badge sits, and the land beyond the board (if the layout has any)."""

    frame: Polygon
    regions: Mapping[str, Polygon]
    borders: Mapping[tuple[str, str], BaseGeometry]
    badges: Mapping[str, tuple[float, float]]
    beyond: Polygon | None = None


def sample(
    line: tuple[tuple[float, float], ...], step: float = SEED_STEP
) -> list[tuple[float, float]]:
    """Points along a polyline, at most ``step`` apart, including every vertex."""
    points = [line[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(line):
        n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step))
        points.extend((x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n) for i in range(1, n + 1))
    return points


def voronoi_regions(layout: Layout) -> dict[str, BaseGeometry]:
    """Each region area as the union of the Voronoi cells of its sampled seeds, in the frame;
    the land beyond the board under ``BEYOND`` when the layout has ``beyond`` seeds."""
    frame = box(0, 0, layout.width, layout.height)
    points: list[tuple[float, float]] = []
    owners: list[str] = []
    seen: dict[tuple[float, float], str] = {}
    seeds = {area: layout.areas[area].seeds for area in layout.regions}
    if layout.beyond:
        seeds[BEYOND] = layout.beyond
    for area, lines in seeds.items():
        for line in lines:
            for x, y in sample(line):
                key = (round(x, 6), round(y, 6))
                if not frame.contains(Point(x, y)):
                    raise GeometryError(f"seed {key} of {area!r} lies outside the canvas")
                if key in seen:
                    if seen[key] != area:
                        raise GeometryError(f"seed {key} is claimed by {seen[key]!r} and {area!r}")
                    continue
                seen[key] = area
                points.append((x, y))
                owners.append(area)
    cells = shapely.get_parts(
        shapely.voronoi_polygons(MultiPoint(points), extend_to=frame, ordered=True)
    )
    parts: dict[str, list[BaseGeometry]] = {area: [] for area in seeds}
    for owner, cell in zip(owners, cells, strict=True):
        parts[owner].append(cell.intersection(frame))
    return {area: shapely.union_all(cells) for area, cells in parts.items()}


def _chaikin(coords: list[tuple[float, float]], closed: bool) -> list[tuple[float, float]]:
    for _ in range(SMOOTH_ROUNDS):
        pts = coords[:-1] if closed else coords
        pairs = list(zip(pts, pts[1:] + pts[:1] if closed else pts[1:], strict=False))
        cut = [
            q
            for (x0, y0), (x1, y1) in pairs
            for q in (
                (0.75 * x0 + 0.25 * x1, 0.75 * y0 + 0.25 * y1),
                (0.25 * x0 + 0.75 * x1, 0.25 * y0 + 0.75 * y1),
            )
        ]
        coords = [*cut, cut[0]] if closed else [coords[0], *cut, coords[-1]]
    return coords


def _snap(coords: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Round to one decimal (as written in the SVG), dropping repeated points."""
    snapped: list[tuple[float, float]] = []
    for x, y in coords:
        p = (round(x, 1), round(y, 1))
        if not snapped or snapped[-1] != p:
            snapped.append(p)
    return snapped


def smooth(raw: Mapping[str, BaseGeometry], frame: Polygon) -> dict[str, Polygon]:
    """Smooth every border chain (the line between two junctions) once, so both neighbours get
    the same curve; borders on the frame stay straight. Coordinates end rounded to 0.1."""
    lines = shapely.line_merge(shapely.union_all([g.boundary for g in raw.values()]))
    chains = [c for c in shapely.get_parts(lines) if isinstance(c, LineString)]
    ends = Counter(p for c in chains for p in (c.coords[0], c.coords[-1]))
    edge = frame.exterior
    smoothed = []
    for chain in chains:
        coords = list(chain.coords)
        if all(edge.distance(Point(p)) < 1e-9 for p in coords):
            smoothed.append(LineString(_snap(coords)))
            continue
        closed = chain.is_closed and ends[coords[0]] == 2
        simple = list(chain.simplify(SIMPLIFY).coords)
        if closed and len(simple) < 4:
            simple = coords
        curve = _snap(list(LineString(_chaikin(simple, closed)).simplify(TOLERANCE).coords))
        if len(curve) >= 2:
            smoothed.append(LineString(curve))
    faces = shapely.get_parts(shapely.polygonize(shapely.get_parts(shapely.union_all(smoothed))))
    owned: dict[str, list[BaseGeometry]] = {area: [] for area in raw}
    names = sorted(raw)
    for face in faces:
        overlap = [(face.intersection(raw[a]).area, a) for a in names if face.intersects(raw[a])]
        owned[max(overlap)[1]].append(face)
    regions = {}
    for area in names:
        if not owned[area]:
            raise GeometryError(f"area {area!r} vanished while smoothing")
        shape = shapely.union_all(owned[area])
        if not isinstance(shape, Polygon):
            raise GeometryError(f"area {area!r} is not one connected shape")
        regions[area] = shapely.normalize(shape)
    return regions


def shared_borders(regions: Mapping[str, Polygon]) -> dict[tuple[str, str], BaseGeometry]:
    """The line two regions share, for every pair that shares more than a point."""
    names = sorted(regions)
    tree = shapely.STRtree([regions[a] for a in names])
    borders = {}
    for a in names:
        for j in sorted(tree.query(regions[a])):
            b = names[j]
            if b <= a:
                continue
            common = regions[a].boundary.intersection(regions[b].boundary)
            lines = [g for g in shapely.get_parts(common) if g.length > 0]
            if lines:
                borders[(a, b)] = shapely.line_merge(MultiLineString(lines))
    return borders


def badge_point(border: BaseGeometry, near: tuple[float, float]) -> tuple[float, float]:
    """The point of ``border`` nearest to ``near``, rounded to 0.1."""
    p = border.interpolate(border.project(Point(near)))
    return _snap([(p.x, p.y)])[0]


def label_point(shape: Polygon) -> tuple[float, float]:
    """The point of ``shape`` farthest from its edges (where a label fits best)."""
    p = polylabel(shape, tolerance=0.5)
    return _snap([(p.x, p.y)])[0]


def build(layout: Layout, neighbours: Mapping[str, frozenset[str]]) -> MapGeometry:
    """The whole map geometry for ``layout``; badges sit on the border of their two neighbours.
    The land beyond the board is smoothed with the regions (so they still fit exactly) but is
    no region: it has no borders and no badges."""
    frame = box(0, 0, layout.width, layout.height)
    regions = smooth(voronoi_regions(layout), frame)
    beyond = regions.pop(BEYOND, None)
    borders = shared_borders(regions)
    badges = {}
    for area in layout.badges:
        a, b = sorted(neighbours[area])
        if (a, b) not in borders:
            raise GeometryError(f"badge {area!r}: {a!r} and {b!r} share no border")
        near = layout.areas[area].badge
        assert near is not None
        badges[area] = badge_point(borders[(a, b)], near)
    return MapGeometry(frame, regions, borders, badges, beyond)
