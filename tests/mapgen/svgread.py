"""Reading a generated map back from its SVG text, as a browser would see it.

Shapes are rebuilt from the path data (M/L/Z only; even-odd fill), so the tests check what is
drawn, not the generator's internal geometry."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import reduce

import shapely
from shapely.geometry import LineString, MultiLineString, Polygon, box
from shapely.geometry.base import BaseGeometry

SVG = "{http://www.w3.org/2000/svg}"

EM_PER_CHAR = 0.72
"""Upper bound of a label glyph's advance in ems: DejaVu Serif Bold, the widest serif fallback
the map's style names, measures at most 0.70 em per character on our area names."""
ICON_REACH = 7.5
"""Icons are drawn within this distance of their centre on each axis."""


def classes(el: ET.Element) -> set[str]:
    """The element's CSS classes."""
    return set(el.get("class", "").split())


def _subpaths(d: str) -> list[tuple[list[tuple[float, float]], bool]]:
    tokens = re.findall(r"[A-Za-z]|-?\d+(?:\.\d+)?", d)
    paths: list[tuple[list[tuple[float, float]], bool]] = []
    numbers: list[float] = []
    for token in tokens:
        if token in ("M", "L", "Z"):
            if numbers:
                paths[-1][0].extend(zip(numbers[::2], numbers[1::2], strict=True))
                numbers = []
            if token == "M":
                paths.append(([], False))
            elif token == "Z":
                paths[-1] = (paths[-1][0], True)
        elif token.isalpha():
            raise AssertionError(f"unexpected path command {token!r}")
        else:
            numbers.append(float(token))
    if numbers:
        paths[-1][0].extend(zip(numbers[::2], numbers[1::2], strict=True))
    return paths


def filled(d: str) -> BaseGeometry:
    """The area a closed path paints with ``fill-rule: evenodd``."""
    rings = [Polygon(pts) for pts, closed in _subpaths(d) if closed]
    assert rings, "a filled path needs closed subpaths"
    return reduce(lambda a, b: a.symmetric_difference(b), rings)


def stroked(d: str) -> BaseGeometry:
    """The centre line of an open path."""
    return MultiLineString([LineString(pts) for pts, _ in _subpaths(d)])


def text_lines(el: ET.Element) -> list[str]:
    """The visible lines of a <text> element (one per <tspan>, else its own text)."""
    spans = el.findall(f"{SVG}tspan")
    return [s.text or "" for s in spans] if spans else [el.text or ""]


def text_box(el: ET.Element) -> Polygon:
    """A rectangle the text certainly fits in (centred with ``text-anchor: middle``)."""
    font = float(el.get("font-size", "0"))
    lines = text_lines(el)
    x, y = float(el.get("x", "0")), float(el.get("y", "0"))
    half = max(len(line) for line in lines) * font * EM_PER_CHAR / 2
    dy = sum(float(s.get("dy", "0")) for s in el.findall(f"{SVG}tspan"))
    return box(x - half, y - font * 0.8, x + half, y + dy + font * 0.25)


def icon_box(el: ET.Element) -> Polygon:
    """The square an icon is drawn in, from its ``translate(x y)``."""
    match = re.fullmatch(r"translate\((-?[\d.]+) (-?[\d.]+)\)", el.get("transform", ""))
    assert match, el.get("transform")
    x, y = float(match[1]), float(match[2])
    return box(x - ICON_REACH, y - ICON_REACH, x + ICON_REACH, y + ICON_REACH)


@dataclass
class DrawnMap:
    """A parsed map: the root, every clickable area element, what each one paints, and the
    land drawn beyond the board's edge (no area; None when the map has none)."""

    root: ET.Element
    elements: dict[str, ET.Element]
    shapes: dict[str, BaseGeometry]
    beyond: BaseGeometry | None = None

    @property
    def regions(self) -> list[str]:
        """Areas drawn as regions (paths), sorted."""
        return sorted(a for a, el in self.elements.items() if "badge" not in classes(el))

    @property
    def badges(self) -> list[str]:
        """Areas drawn as badges, sorted."""
        return sorted(a for a, el in self.elements.items() if "badge" in classes(el))

    def separators(self) -> list[tuple[str, frozenset[str], BaseGeometry]]:
        """Every river or impassable border: (class, the two areas, its line)."""
        out = []
        for el in self.root.iter(f"{SVG}path"):
            kind = classes(el) & {"river", "impassable"}
            if kind:
                out.append(
                    (
                        kind.pop(),
                        frozenset(el.get("data-between", "").split()),
                        stroked(el.get("d", "")),
                    )
                )
        return out

    def shared_length(self, a: str, b: str) -> float:
        """How much of ``a``'s outline runs along ``b``'s (within 0.05 units)."""
        return self.shapes[a].boundary.intersection(self.shapes[b].buffer(0.05)).length


def read(text: str) -> DrawnMap:
    """Parse a generated map."""
    root = ET.fromstring(text)
    elements = {el.get("data-area", ""): el for el in root.iter() if el.get("data-area")}
    shapes = {}
    for area, el in elements.items():
        shape = next(c for c in el if "area-shape" in classes(c))
        if shape.tag == f"{SVG}path":
            shapes[area] = filled(shape.get("d", ""))
        else:
            x, y = float(shape.get("x", "0")), float(shape.get("y", "0"))
            w, h = float(shape.get("width", "0")), float(shape.get("height", "0"))
            shapes[area] = box(x, y, x + w, y + h)
    off_board = [
        filled(el.get("d", "")) for el in root.iter(f"{SVG}path") if "off-board" in classes(el)
    ]
    return DrawnMap(root, elements, shapes, shapely.union_all(off_board) if off_board else None)


def touching(shapes: dict[str, BaseGeometry]) -> list[tuple[str, str]]:
    """Sorted pairs of shapes that touch or overlap."""
    names = sorted(shapes)
    tree = shapely.STRtree([shapes[n] for n in names])
    pairs = set()
    for i, a in enumerate(names):
        for j in tree.query(shapes[a], predicate="intersects"):
            if j > i:
                pairs.add((a, names[j]))
    return sorted(pairs)
