"""Issue 37 point 4, the map of an 8-player Mother of Dragons game (RULES.md 11.1, 11.6.1) in
real Chromium against the real local core: "loyalty tokens and units cover area names; a ship
covers the Port of Pentos label; units are tiny in "Whole map"; Norvos and the Rhoyne run off
the map's right edge" (the last: test_newplayer_defects_map_edge.py).

The board is crowded on purpose: every area holding units gets four (ships at sea, a knight,
footmen and a siege engine on land), the Port of Pentos three ships, and seventeen areas a
loyalty token, so that every area's pieces compete for room beside the names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page

from westeros.engine.state import State, Unit

from .live import LiveCore
from .test_board_fixes import open_board

PERSON = "targaryen"
TOUCH_PX = 1.0
"""Boxes that overlap by no more than this (in CSS pixels, either way) only touch."""
MIN_UNIT_PX = 14.0
"""The smallest legible unit: the square a unit is drawn in, in CSS pixels."""
LAND = ("knight", "footman", "siege_engine", "footman")
LOYAL = (
    "kings-landing", "the-reach", "harrenhal", "riverrun", "the-eyrie", "pyke", "lannisport",
    "highgarden", "winterfell", "sunspear", "dragonstone", "braavos", "pentos", "myr",
    "volantis", "norvos", "the-rhoyne",
)  # fmt: skip

BOXES = """() => {
  const svg = document.getElementById("board-svg");
  const box = (e) => {
    const b = e.getBoundingClientRect();
    return [b.left, b.top, b.right, b.bottom];
  };
  const names = [];
  for (const g of svg.querySelectorAll("g.area[data-area]")) {
    const parts = g.classList.contains("badge")
      ? g.querySelectorAll(":scope > .area-shape")
      : g.querySelectorAll(":scope > text, :scope > g[data-icon]");
    for (const part of parts) names.push([g.dataset.area, box(part)]);
  }
  const pieces = [];
  for (const drawn of svg.querySelectorAll(".w-pieces > g")) {
    const kids = drawn.classList.contains("w-cluster")
      ? [...drawn.children].filter((k) => k.tagName !== "title") : [drawn];
    for (const kid of kids) pieces.push([drawn.dataset.testid, box(kid)]);
  }
  const units = [...svg.querySelectorAll(".w-unit")].map((u) =>
    [u.closest("[data-testid]").dataset.testid, u.width.baseVal.value * u.getScreenCTM().a]);
  const pane = document.querySelector(".map-pane");
  const p = pane.getBoundingClientRect();
  const visible = [p.left + pane.clientLeft, p.top + pane.clientTop,
                   p.left + pane.clientLeft + pane.clientWidth, Infinity];
  return {names, pieces, units, svg: box(svg), visible};
}"""
"""The screen boxes of every area's name (its text and icons; a port's badge) and of every
piece and token drawn on the map, each unit's drawn size, the map's screen box and the part of
the map pane not under its scroll bars."""


def overlap(a: list[float], b: list[float]) -> bool:
    """Do two [left, top, right, bottom] boxes overlap by more than ``TOUCH_PX`` both ways?"""
    return (
        min(a[2], b[2]) - max(a[0], b[0]) > TOUCH_PX
        and min(a[3], b[3]) - max(a[1], b[1]) > TOUCH_PX
    )


def crowd(state: State) -> None:
    """Fill the board as described in the module docstring (drawn as the view shows it)."""
    rules = state.rules
    for area, units in list(state.units.items()):
        kinds = LAND if rules.domain[area] == "land" else ("ship",) * 4
        extra = tuple(Unit(units[0].house, kind) for kind in kinds[len(units) : 4])
        state.units[area] = units + extra
    state.units["port-of-pentos"] = (Unit(PERSON, "ship"),) * 3
    tokens = dict(state.ext["loyalty_tokens"])
    state.ext["loyalty_tokens"] = tuple(
        sorted({**tokens, **{a: tokens.get(a, 0) + 1 for a in LOYAL}}.items())
    )
    state.cache = None


def crowded_board(page: Page, core: LiveCore) -> dict[str, Any]:
    """The person's board of a new crowded 8-player game; the map's boxes once drawn."""
    session = core.app.state.games.create(
        players=8, human=PERSON, seed=15, options={"mother_of_dragons": True}
    )
    with session._lock:  # the AI seats act at once: crowd the state none of them is replacing
        crowd(session.state)
    open_board(page, core, session, PERSON)
    page.get_by_test_id(f"loyalty-{LOYAL[-1]}").wait_for()
    return page.evaluate(BOXES)


def whole_map(page: Page) -> dict[str, Any]:
    """Press "Whole map"; the map's boxes once it is drawn at that size."""
    before = page.evaluate(
        "() => document.getElementById('board-svg').getBoundingClientRect().width"
    )
    page.get_by_role("button", name="Whole map").click()
    page.wait_for_function(
        "w => document.getElementById('board-svg').getBoundingClientRect().width !== w", arg=before
    )
    page.wait_for_timeout(200)  # the pieces are laid out again for the new size
    return page.evaluate(BOXES)


def covered_names(boxes: dict[str, Any]) -> list[tuple[str, str]]:
    """(area, piece group) for every area name a piece or token covers."""
    return [
        (area, piece)
        for area, name in boxes["names"]
        for piece, drawn in boxes["pieces"]
        if overlap(name, drawn)
    ]


def test_issue37_no_unit_or_loyalty_token_covers_an_area_name(
    page: Page, live_core: LiveCore, artifacts: Path
) -> None:
    """Every area's name (text and icons; a port's badge) is clear of every unit, order,
    power token and loyalty token, at the default zoom and in "Whole map"."""
    boxes = crowded_board(page, live_core)
    page.screenshot(path=str(artifacts / "newplayer-map-crowded.png"))
    assert covered_names(boxes) == []
    boxes = whole_map(page)
    page.screenshot(path=str(artifacts / "newplayer-map-crowded-whole.png"))
    assert covered_names(boxes) == []


OUTLINES_OVER_PORT = """() => {
  const svg = document.getElementById("board-svg");
  const badge = svg.querySelector("g[data-area=port-of-pentos]");
  const b = badge.querySelector("text").getBBox();
  const hits = new Set();
  for (const line of svg.querySelectorAll(".w-highlights > *")) {
    const above = badge.compareDocumentPosition(line) & Node.DOCUMENT_POSITION_FOLLOWING;
    if (!above || line.dataset.for === "port-of-pentos") continue;
    for (let i = 0; i <= 8; i++) {
      for (let j = 0; j <= 4; j++) {
        const p = new DOMPoint(b.x + (b.width * i) / 8, b.y + (b.height * j) / 4);
        if (line.isPointInStroke(p)) hits.add(`${line.className.baseVal} of ${line.dataset.for}`);
      }
    }
  }
  return [...hits];
}"""
"""The outlines (of areas to choose, the selected area) painted over the Port of Pentos's
"Port" label."""


def test_issue37_ships_in_the_port_of_pentos_leave_its_label_clear(
    page: Page, live_core: LiveCore
) -> None:
    """The Port of Pentos holds three Targaryen ships; no ship (nor anything else) covers its
    badge, in either zoom. The play-through saw its label covered while placing Targaryen's
    first orders: the outlines of the Bay of Pentos (selected, thick white) and of Pentos (to
    choose) ran across "Port", since the badge sits on their shared coast; they now go under
    the badge."""
    for boxes in (crowded_board(page, live_core), whole_map(page)):
        assert page.locator("[data-testid=pieces-port-of-pentos] .w-unit").count() == 3
        badge = [name for area, name in boxes["names"] if area == "port-of-pentos"]
        assert badge
        hits = [p for p, drawn in boxes["pieces"] for b in badge if overlap(b, drawn)]
        assert hits == []
        assert page.locator(".w-highlights .is-selected").count() == 1  # the area to order
        assert page.evaluate(OUTLINES_OVER_PORT) == []


def test_issue37_units_stay_legible_in_whole_map(page: Page, live_core: LiveCore) -> None:
    """In "Whole map" (and at the default zoom) every unit is drawn at least
    ``MIN_UNIT_PX`` pixels wide, crowded areas included."""
    for boxes in (crowded_board(page, live_core), whole_map(page)):
        small = [(where, round(px, 1)) for where, px in boxes["units"] if px < MIN_UNIT_PX]
        assert len(boxes["units"]) > 100 and small == []
