"""Layout files: the positions we choose for each area (DESIGN §4, RULES.md 1.1).

A plugin contributes positions by shipping ``data/layout.json`` in the package of its plugin
module (the base game: ``westeros/base/data/layout.json``; ports:
``westeros_ports/data/layout.json``). See the package docstring for the file format."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any

from westeros.engine.content import MapShapes, Ruleset

Point = tuple[float, float]

LAYOUT_FILE = ("data", "layout.json")


class LayoutError(ValueError):
    """A layout file is malformed, or the merged layout does not cover the Ruleset's areas."""


@dataclass(frozen=True, slots=True)
class AreaLayout:
    """Where one area goes. A region has ``seeds`` (polylines whose points claim the nearest
    ground); a badge has ``badge`` (a point snapped onto the border of its two neighbours).
    ``label`` optionally fixes the label's centre; otherwise the generator picks one."""

    area: str
    source: str
    seeds: tuple[tuple[Point, ...], ...] = ()
    badge: Point | None = None
    label: Point | None = None


@dataclass(frozen=True, slots=True)
class Layout:
    """The merged layout of every plugin: the canvas size and one entry per area."""

    width: float
    height: float
    areas: Mapping[str, AreaLayout]
    beyond: tuple[tuple[Point, ...], ...] = ()
    """Seed polylines of the land beyond the board's edge: it belongs to no area, so the areas
    next to it get a border of their own there instead of running into the frame."""

    @property
    def regions(self) -> tuple[str, ...]:
        """Ids of the areas drawn as regions, sorted."""
        return tuple(sorted(a for a, lay in self.areas.items() if lay.seeds))

    @property
    def badges(self) -> tuple[str, ...]:
        """Ids of the areas drawn as badges, sorted."""
        return tuple(sorted(a for a, lay in self.areas.items() if lay.badge is not None))


def _point(value: Any, where: str) -> Point:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        or not all(math.isfinite(v) for v in value)
    ):
        raise LayoutError(f"{where}: expected [x, y], got {value!r}")
    return (float(value[0]), float(value[1]))


def _seeds(lines: Any, where: str) -> tuple[tuple[Point, ...], ...]:
    if not isinstance(lines, list) or not lines:
        raise LayoutError(f"{where}: expected a non-empty list of seed polylines")
    for line in lines:
        if not isinstance(line, list) or not line:
            raise LayoutError(f"{where}: every seed polyline needs at least one point")
    return tuple(tuple(_point(p, where) for p in line) for line in lines)


def _area(area: str, entry: Any, source: str) -> AreaLayout:
    where = f"{source}: area {area!r}"
    if not isinstance(entry, dict):
        raise LayoutError(f"{where}: expected an object")
    unknown = set(entry) - {"seeds", "badge", "label"}
    if unknown:
        raise LayoutError(f"{where}: unknown keys {sorted(unknown)}")
    if ("seeds" in entry) == ("badge" in entry):
        raise LayoutError(f"{where}: give exactly one of 'seeds' or 'badge'")
    if "badge" in entry and "label" in entry:
        raise LayoutError(f"{where}: a badge carries its own label")
    seeds = _seeds(entry["seeds"], f"{where} seeds") if "seeds" in entry else ()
    badge = _point(entry["badge"], f"{where} badge") if "badge" in entry else None
    label = _point(entry["label"], f"{where} label") if "label" in entry else None
    return AreaLayout(area, source, seeds, badge, label)


@dataclass(frozen=True, slots=True)
class LayoutFile:
    """One parsed layout file: the canvas it sets, its entries for new areas, its entries that
    redraw earlier areas (``replace``), the room it adds to the canvas (``extend``), whether
    it applies only when every area it places is in the Ruleset (``optional``: a side board),
    and the seeds of the land it draws beyond the board's edge (``beyond``)."""

    canvas: Point | None
    entries: list[AreaLayout]
    replace: list[AreaLayout]
    extend: Point
    optional: bool
    beyond: tuple[tuple[Point, ...], ...] = ()


def parse_file(data: Any, source: str) -> LayoutFile:
    """Parse one layout file (format in the package docstring)."""
    if not isinstance(data, dict) or not isinstance(data.get("areas"), dict):
        raise LayoutError(f"{source}: expected an object with an 'areas' object")
    unknown = set(data) - {"_about", "canvas", "areas", "replace", "extend", "optional", "beyond"}
    if unknown:
        raise LayoutError(f"{source}: unknown keys {sorted(unknown)}")
    canvas = _point(data["canvas"], f"{source} canvas") if "canvas" in data else None
    if canvas is not None and min(canvas) <= 0:
        raise LayoutError(f"{source}: canvas must have a positive size")
    extend = _point(data.get("extend", [0, 0]), f"{source} extend")
    if min(extend) < 0:
        raise LayoutError(f"{source}: extend must not shrink the canvas")
    replace = data.get("replace", {})
    if not isinstance(replace, dict):
        raise LayoutError(f"{source}: 'replace' must be an object")
    if not isinstance(data.get("optional", False), bool):
        raise LayoutError(f"{source}: 'optional' must be true or false")
    return LayoutFile(
        canvas,
        [_area(area, entry, source) for area, entry in sorted(data["areas"].items())],
        [_area(area, entry, source) for area, entry in sorted(replace.items())],
        extend,
        bool(data.get("optional", False)),
        _seeds(data["beyond"], f"{source} beyond") if "beyond" in data else (),
    )


def parse(data: Any, source: str) -> tuple[Point | None, list[AreaLayout]]:
    """The canvas size (if this file sets it) and the area entries of one layout file."""
    parsed = parse_file(data, source)
    return parsed.canvas, parsed.entries


def merge(rules: Ruleset, files: Iterable[tuple[str, Any]]) -> Layout:
    """Merge parsed layout files (``(source, data)`` pairs) for the areas of ``rules``.

    Exactly one file sets the canvas; every area of ``rules`` needs exactly one entry; entries
    for areas the Ruleset does not have are refused (a misspelt id would be silently lost),
    but an ``optional`` file naming any such area is left out whole. A ``replace`` entry
    redraws an area an earlier file placed; ``extend`` grows the canvas; the ``beyond`` seeds
    of every file used are kept together."""
    canvas: tuple[Point, str] | None = None
    extra_w = extra_h = 0.0
    areas: dict[str, AreaLayout] = {}
    beyond: list[tuple[Point, ...]] = []
    for source, data in files:
        parsed = parse_file(data, source)
        if parsed.optional and any(e.area not in rules.areas for e in parsed.entries):
            continue
        if parsed.canvas is not None:
            if canvas is not None:
                raise LayoutError(f"both {canvas[1]} and {source} set the canvas")
            canvas = (parsed.canvas, source)
        extra_w, extra_h = extra_w + parsed.extend[0], extra_h + parsed.extend[1]
        beyond += parsed.beyond
        for entry in parsed.entries:
            if entry.area in areas:
                raise LayoutError(
                    f"area {entry.area!r} is placed by both {areas[entry.area].source} and {source}"
                )
            if entry.area not in rules.areas:
                raise LayoutError(f"{source}: area {entry.area!r} is not in the ruleset")
            areas[entry.area] = entry
        for entry in parsed.replace:
            if entry.area not in areas:
                raise LayoutError(f"{source}: replaces {entry.area!r}, placed by no earlier file")
            areas[entry.area] = entry
    if canvas is None:
        raise LayoutError("no layout file sets the canvas")
    missing = sorted(set(rules.areas) - set(areas))
    if missing:
        raise LayoutError(f"no layout position for areas {missing}")
    for area in sorted(areas):
        if areas[area].badge is not None and len(rules.adjacency[area]) != 2:
            raise LayoutError(f"badge area {area!r} must have exactly two neighbours")
    size = (canvas[0][0] + extra_w, canvas[0][1] + extra_h)
    return Layout(size[0], size[1], dict(sorted(areas.items())), tuple(beyond))


def plugin_layouts(plugins: Iterable[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The parsed ``data/layout.json`` of every ``(name, plugin object)`` whose plugin is a module
    shipping one (beside it, in its package), in the given order, as ``(source, data)`` pairs."""
    found = []
    for name, plugin in plugins:
        if not isinstance(plugin, ModuleType):
            continue
        if plugin.__file__:
            path: Any = Path(plugin.__file__).parent.joinpath(*LAYOUT_FILE)
        elif plugin.__package__:
            path = resources.files(plugin.__package__).joinpath(*LAYOUT_FILE)
        else:
            continue
        if path.is_file():
            found.append((f"{name} ({'/'.join(LAYOUT_FILE)})", json.loads(path.read_text("utf-8"))))
    return found


def hook_layouts(shapes: Mapping[str, Any], names: Iterable[str]) -> list[tuple[str, Any]]:
    """The layout data of ``register_map_shapes`` results (``{plugin name: list of
    MapShapes}``) of the plugins ``names``, in that order, as ``(source, data)`` pairs."""
    found = []
    for name in names:
        for i, item in enumerate(shapes.get(name) or ()):
            if not isinstance(item, MapShapes):
                raise LayoutError(f"{name}: register_map_shapes returned {item!r}, not MapShapes")
            found.append((f"{name} (register_map_shapes #{i + 1})", item.layout))
    return found
