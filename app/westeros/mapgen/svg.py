"""Drawing the map geometry as one self-contained SVG document (DESIGN §4, RULES.md 1.1).

Each area is one ``<g id="area-<id>" class="area ..." data-area="<id>">`` holding its shape,
``<title>``, label and icons (castle/stronghold, crowns, barrels); the land beyond the board
(if any), borders that are not crossings (rivers, impassable borders), the Wall and the port
badges are drawn above them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

import shapely
from shapely.geometry import LineString, MultiLineString, Polygon, box
from shapely.geometry.base import BaseGeometry

from westeros.engine.content import LAND, AreaDef, Ruleset

from .geometry import MapGeometry, label_point
from .layout import Layout

LAND_FONT = 12
SEA_FONT = 13
PORT_FONT = 9
LINE_HEIGHT = 1.15
"""Line spacing of a label, in font sizes."""
ICON = 16
"""Width of one icon slot; icons are drawn within ±7 units of their centre."""
WRAP = 13
"""Names longer than this many characters are split over two lines."""
BADGE = (34.0, 15.0)
"""Width and height of a port badge."""
WALL = 12.0
"""Depth of the Wall along the top edge of the land (RULES.md 1.1.3)."""
HATCH = 7.0
"""Spacing of the diagonal hatching on the land beyond the board."""

STYLE = """
.area{cursor:pointer}
.area-shape{stroke-width:1.2;stroke-linejoin:round}
.land .area-shape{fill:#e8d9ad;stroke:#7a6340}
.land.castle-2 .area-shape{fill:#e3cf98}
.sea .area-shape{fill:#a8cadb;stroke:#6d93a8}
.area:hover .area-shape{fill-opacity:.78}
.label{font-family:Georgia,'DejaVu Serif',serif;text-anchor:middle;pointer-events:none}
.land .label{fill:#3d2f1c;font-weight:bold}
.sea .label{fill:#27506a;font-style:italic}
.icon{pointer-events:none;stroke-width:.8;stroke-linejoin:round}
.castle path,.stronghold path{fill:#8a8378;stroke:#3b352d}
.castle .door,.stronghold .door{fill:#3b352d}
.crown path{fill:#e2b33c;stroke:#6e5310}
.barrel rect{fill:#b07a45;stroke:#4f341a}
.barrel path{fill:none;stroke:#4f341a}
.river{fill:none;stroke:#3f86bd;stroke-width:4.5;stroke-linecap:round;stroke-linejoin:round}
.impassable{fill:none;stroke:#40321f;stroke-width:5;stroke-linecap:round;stroke-dasharray:.5 6}
.borders,.wall,.frame{pointer-events:none}
.wall path{fill:#f2f5f7;stroke:#8b98a3;stroke-width:1}
.wall text{font-family:Georgia,'DejaVu Serif',serif;text-anchor:middle;fill:#6c7a86;
letter-spacing:3px}
.frame{fill:none;stroke:#4a3b28;stroke-width:3}
.badge .area-shape{fill:#f7f0dc;stroke:#27506a;stroke-width:1.4}
.badge .label{fill:#27506a;font-weight:bold;font-style:normal}
.beyond{pointer-events:none}
.beyond .off-board{fill:#d8d0bc;stroke:#7a6340;stroke-width:1.2;stroke-linejoin:round}
.beyond .hatch{fill:none;stroke:#a3967a;stroke-width:1.2}
"""

ICON_SHAPES = {
    "castle": (
        '<path d="M-6 6V-4H-3.6V-1.6H-1.2V-4H1.2V-1.6H3.6V-4H6V6Z"/>'
        '<path class="door" d="M-1.6 6V2.6A1.6 1.6 0 0 1 1.6 2.6V6Z"/>'
    ),
    "stronghold": (
        '<path d="M-7 7V-6H-5V-4.2H-3V-6H-1V-1H1V-6H3V-4.2H5V-6H7V7Z"/>'
        '<path class="door" d="M-1.8 7V3A1.8 1.8 0 0 1 1.8 3V7Z"/>'
    ),
    "crown": '<path d="M-6.5 5V-4L-3.2 -.5L0 -6L3.2 -.5L6.5 -4V5Z"/>',
    "barrel": (
        '<rect x="-5" y="-6.5" width="10" height="13" rx="3.5"/><path d="M-5 -2.3H5M-5 2.3H5"/>'
    ),
}


def num(value: float) -> str:
    """A coordinate with at most one decimal and no trailing zeros."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def path_data(geom: BaseGeometry) -> str:
    """SVG path data for polygons (rings closed with Z; use fill-rule evenodd) or lines."""
    out = []
    for part in shapely.get_parts(geom):
        if isinstance(part, Polygon):
            rings = [part.exterior, *part.interiors]
            for ring in rings:
                pts = list(ring.coords)[:-1]
                out.append("M" + "L".join(f"{num(x)} {num(y)}" for x, y in pts) + "Z")
        else:
            out.append("M" + "L".join(f"{num(x)} {num(y)}" for x, y in part.coords))
    return "".join(out)


def wrap(name: str) -> tuple[str, ...]:
    """The label lines for ``name``: one line, or two split where the longer line is shortest."""
    if len(name) <= WRAP or " " not in name:
        return (name,)
    splits = [i for i, ch in enumerate(name) if ch == " "]
    best = min(splits, key=lambda i: (max(i, len(name) - i - 1), i))
    return (name[:best], name[best + 1 :])


def icons(area: AreaDef) -> tuple[str, ...]:
    """The icons printed in an area: its castle or stronghold (RULES.md 1.1.4), then its crowns
    and barrels (1.1.5)."""
    castle = {1: ("castle",), 2: ("stronghold",)}.get(area.castle, ())
    return castle + ("crown",) * area.crowns + ("barrel",) * area.barrels


@dataclass(frozen=True, slots=True)
class Label:
    """An area's name and icons: ``lines`` centred on ``x`` with the first baseline at ``y``,
    then a row of ``icons`` centred at height ``icon_y``; the block is centred on ``(x, cy)``."""

    x: float
    y: float
    cy: float
    font: int
    lines: tuple[str, ...]
    icon_y: float
    icons: tuple[str, ...]


def place_label(area: AreaDef, domain: str, centre: tuple[float, float]) -> Label:
    """A label block (name, then a row of icons) centred on ``centre``."""
    font = LAND_FONT if domain == LAND else SEA_FONT
    lines = wrap(area.name)
    marks = icons(area)
    text_height = font * (1 + LINE_HEIGHT * (len(lines) - 1))
    height = text_height + (ICON + 2 if marks else 0)
    top = centre[1] - height / 2
    first_baseline = top + font * 0.8
    icon_y = top + text_height + 2 + ICON / 2
    return Label(
        centre[0], round(first_baseline, 1), centre[1], font, lines, round(icon_y, 1), marks
    )


def _text(label: Label, cls: str) -> str:
    x = num(label.x)
    if len(label.lines) == 1:
        body = escape(label.lines[0])
    else:
        dy = num(label.font * LINE_HEIGHT)
        body = "".join(
            f'<tspan x="{x}"{"" if i == 0 else f" dy={quoteattr(dy)}"}>{escape(line)}</tspan>'
            for i, line in enumerate(label.lines)
        )
    return f'<text class="{cls}" x="{x}" y="{num(label.y)}" font-size="{label.font}">{body}</text>'


def _icons(label: Label) -> Iterable[str]:
    start = label.x - (len(label.icons) - 1) * ICON / 2
    for i, kind in enumerate(label.icons):
        at = f"translate({num(start + i * ICON)} {num(label.icon_y)})"
        yield f'<g class="icon {kind}" data-icon="{kind}" transform="{at}">{ICON_SHAPES[kind]}</g>'


def labels(rules: Ruleset, layout: Layout, geo: MapGeometry) -> dict[str, Label]:
    """The label block of every region: at its chosen point, or where it fits best."""
    out = {}
    for area in layout.regions:
        chosen = layout.areas[area].label
        centre = chosen if chosen is not None else label_point(geo.regions[area])
        out[area] = place_label(rules.areas[area], rules.domain[area], centre)
    return out


def _classes(area: AreaDef, domain: str) -> str:
    cls = ["area", "land" if domain == LAND else "sea", f"kind-{area.kind}"]
    if area.castle:
        cls.append(f"castle-{area.castle}")
    if area.home_of:
        cls += ["home", f"home-{area.home_of}"]
    return " ".join(cls)


def _wall(rules: Ruleset, layout: Layout, geo: MapGeometry) -> list[str]:
    """The Wall along the top edge of the land: nothing lies north of it (RULES.md 1.1.3)."""
    land = [geo.regions[a] for a in layout.regions if rules.domain[a] == LAND]
    wall = shapely.union_all(land).intersection(box(0, 0, layout.width, WALL))
    if wall.is_empty:
        return []
    x0, _, x1, _ = wall.bounds
    return [
        f'<g class="wall"><path d="{path_data(shapely.normalize(wall))}"/>'
        f'<text x="{num((x0 + x1) / 2)}" y="{num(WALL * 0.75)}" font-size="{num(WALL * 0.7)}">'
        "THE WALL</text></g>"
    ]


def _beyond(geo: MapGeometry) -> list[str]:
    """The land beyond the board's edge: greyer than the board's land, hatched, belonging to
    no area (no ``data-area``) and not clickable; its outline is its neighbours' own border."""
    if geo.beyond is None:
        return []
    x0, y0, x1, y1 = geo.beyond.bounds
    rise = y1 - y0
    steps = int((x1 - x0 + rise) // HATCH) + 1
    strokes = MultiLineString(
        [[(x0 + i * HATCH, y0), (x0 + i * HATCH - rise, y1)] for i in range(steps)]
    ).intersection(geo.beyond)
    hatch = [g for g in shapely.get_parts(strokes) if isinstance(g, LineString) and g.length]
    return [
        '<g class="beyond" aria-hidden="true">'
        f'<path class="off-board" d="{path_data(geo.beyond)}"/>'
        f'<path class="hatch" d="{path_data(MultiLineString(hatch))}"/></g>'
    ]


def render(rules: Ruleset, layout: Layout, geo: MapGeometry) -> str:
    """The SVG document for ``geo``: byte-identical for identical input."""
    w, h = num(layout.width), num(layout.height)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" '
        f'class="westeros-map" role="img" aria-label="Map of Westeros">',
        "<title>Westeros</title>",
        f"<style>{STYLE}</style>",
        '<g class="regions">',
    ]
    placed = labels(rules, layout, geo)
    # Seas first, so that every coastline is stroked as land.
    for area_id in sorted(layout.regions, key=lambda a: (rules.domain[a] == LAND, a)):
        area = rules.areas[area_id]
        label = placed[area_id]
        out.append(
            f'<g id="area-{area_id}" class="{_classes(area, rules.domain[area_id])}" '
            f'data-area="{area_id}" data-kind="{area.kind}" '
            f'data-x="{num(label.x)}" data-y="{num(label.cy)}">'
        )
        out.append(f"<title>{escape(area.name)}</title>")
        out.append(
            f'<path class="area-shape" fill-rule="evenodd" d="{path_data(geo.regions[area_id])}"/>'
        )
        out.append(_text(label, "label"))
        out.extend(_icons(label))
        out.append("</g>")
    out.append("</g>")
    out.extend(_beyond(geo))
    out.append('<g class="borders">')
    for (a, b), line in sorted(geo.borders.items()):
        if b in rules.adjacency[a]:
            continue
        both_land = rules.domain[a] == LAND and rules.domain[b] == LAND
        cls = "river" if both_land else "impassable"
        out.append(f'<path class="{cls}" data-between="{a} {b}" d="{path_data(line)}"/>')
    out.append("</g>")
    out.extend(_wall(rules, layout, geo))
    out.append('<g class="ports">')
    for area_id in layout.badges:
        area = rules.areas[area_id]
        x, y = geo.badges[area_id]
        bw, bh = BADGE
        between = " ".join(sorted(rules.adjacency[area_id]))
        out.append(
            f'<g id="area-{area_id}" class="{_classes(area, rules.domain[area_id])} badge" '
            f'data-area="{area_id}" data-kind="{area.kind}" data-between="{between}" '
            f'data-x="{num(x)}" data-y="{num(y)}">'
        )
        out.append(f"<title>{escape(area.name)}</title>")
        out.append(
            f'<rect class="area-shape" x="{num(x - bw / 2)}" y="{num(y - bh / 2)}" '
            f'width="{num(bw)}" height="{num(bh)}" rx="{num(bh / 2)}"/>'
        )
        badge_label = Label(x, round(y + PORT_FONT * 0.35, 1), y, PORT_FONT, ("Port",), 0.0, ())
        out.append(_text(badge_label, "label"))
        out.append("</g>")
    out.append("</g>")
    out.append(f'<rect class="frame" x="0" y="0" width="{w}" height="{h}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
