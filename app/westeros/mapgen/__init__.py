"""Our own SVG map of Westeros, generated from area positions we choose (DESIGN §4, RULES.md 1.1).

Regenerate the bundled map from the repository root with ``python -m westeros.mapgen``
(``--check`` only verifies that ``frontend/static/map/westeros.svg`` is up to date).

**Positions.** Each plugin may ship ``data/layout.json`` in the package of its plugin module;
a plugin may also return the same data from the ``register_map_shapes`` hook; the files and
shapes of every plugin that built the Ruleset are merged (``load_layout``). The format::

    {
      "canvas": [width, height],            # exactly one file (the base game's) sets it
      "replace": {"<area id>": {...}},      # redraws an area an earlier file placed
      "optional": true,                     # a side board: used only if all its areas are in
      "extend": [dx, dy],                   # the game; grows the canvas right/down when used
      "beyond": [[[x, y], ...], ...],       # seeds of land beyond the board (no area)
      "areas": {
        "<area id>": {"seeds": [[[x, y], ...], ...], "label": [x, y]},
        "<area id>": {"badge": [x, y]}
      }
    }

A *region* gives ``seeds``: polylines (a single point is a one-point polyline) sampled every
few units; every seed point claims the ground nearest to it (a Voronoi diagram clipped to the
canvas), and the area is the union of its points' cells. ``label`` optionally fixes the centre
of the label block (name and icons); otherwise it goes where the shape is widest. A *badge*
(the ports) is a small clickable shape placed on the border between the area's two
neighbours (a port's land area and its sea), at the point of that border nearest ``badge``.
Every area of the Ruleset needs exactly one entry, and an entry for an area the Ruleset lacks
is refused. A plugin that adds areas supplies their seeds; the neighbouring regions give way.
``beyond`` seeds claim ground for no area: the land that goes on past the board's edge, drawn
hatched and not clickable, so that an area next to it has a border of its own there instead of
running into the frame (where the real board shows more land, e.g. east of Essos).

**Borders.** Touching regions that are adjacent in the data share a border; touching regions
that are not adjacent are separated by a river (land and land) or an impassable border
(otherwise), drawn along their shared edge."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from westeros.engine.content import Ruleset
from westeros.plugins import PluginHost, build_ruleset

from .layout import Layout, LayoutError, hook_layouts, merge, plugin_layouts

OUTPUT = Path("frontend", "static", "map", "westeros.svg")
"""Where the bundled map lives, relative to the repository root."""

__all__ = [
    "OUTPUT",
    "Layout",
    "LayoutError",
    "bundled_map",
    "bundled_maps",
    "generate",
    "load_layout",
    "variant_options",
]


def generate(rules: Ruleset, layout: Layout) -> str:
    """The SVG map of ``rules`` drawn from ``layout`` (needs shapely: the ``mapgen`` extra)."""
    from . import geometry, svg

    return svg.render(rules, layout, geometry.build(layout, rules.adjacency))


def load_layout(
    rules: Ruleset,
    *,
    disable: Iterable[str] = (),
    extra: Iterable[Any] = (),
    autoload: bool = False,
) -> Layout:
    """The merged layout files of the plugins that built ``rules`` (loaded with the same
    ``disable``, ``extra`` and ``autoload`` as ``build_ruleset``), in registration order."""
    host = PluginHost(disable, extra, autoload=autoload)
    shapes = host.call_each("register_map_shapes")
    files = []
    for name, _ in rules.plugins:
        files += plugin_layouts([(name, host.pm.get_plugin(name))])
        files += hook_layouts(shapes, [name])
    return merge(rules, files)


def bundled_map(disable: Iterable[str] = ()) -> str:
    """The map of the default and bundled plugins (minus ``disable``; never installed or user
    plugins), as shipped in ``OUTPUT``."""
    skip = tuple(disable)
    rules = build_ruleset(disable=skip, autoload=False)
    return generate(rules, load_layout(rules, disable=skip))


def variant_options(disable: Iterable[str] = ()) -> list[str]:
    """The on/off game options of the default and bundled plugins that change the board: a
    game with one of them on has other areas than the base game, so it gets its own map."""
    skip = tuple(disable)
    base = build_ruleset(disable=skip, autoload=False)
    return [
        option.id
        for option in base.options.values()
        if isinstance(option.default, bool)
        and not option.default
        and option.requires is None
        and set(build_ruleset({option.id: True}, disable=skip, autoload=False).areas)
        != set(base.areas)
    ]


def variant_path(out: Path, option: str) -> Path:
    """Where the map of games with ``option`` on goes, beside the base map ``out``."""
    return out.with_name(f"{out.stem}-{option}{out.suffix}")


def bundled_maps(out: Path = OUTPUT, disable: Iterable[str] = ()) -> dict[Path, str]:
    """Every shipped map by path: the base map at ``out``, and beside it the map of each of
    ``variant_options`` (the server gives a game the smallest map holding all its areas)."""
    skip = tuple(disable)
    maps = {out: bundled_map(skip)}
    for option in variant_options(skip):
        rules = build_ruleset({option: True}, disable=skip, autoload=False)
        maps[variant_path(out, option)] = generate(rules, load_layout(rules, disable=skip))
    return maps
