"""Issue 37 point 4, the map's edge in an 8-player Mother of Dragons game (RULES.md 11.1), in
real Chromium against the real local core: "Norvos and the Rhoyne run off the map's right edge".

The real board's Essos goes on east of Norvos, the Rhoyne and Volantis; our map drew them
up to its frame, so they had no eastern border and seemed cut off. Now the land beyond the
board's edge is drawn there (hatched, no area), and every land area's outline lies inside the
map with a border of its own; only Castle Black meets the frame, along the Wall (1.1.3)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page

from .live import LiveCore
from .test_newplayer_defects_map import crowded_board, whole_map

EDGE_PX = 8.0
"""How far (in CSS pixels) every land area's outline stays inside the drawn map's edge: far
enough that its own border is seen apart from the map's frame."""

EDGES = """() => {
  const svg = document.getElementById("board-svg");
  const box = (e) => {
    const b = e.getBoundingClientRect();
    return [b.left, b.top, b.right, b.bottom];
  };
  const land = {};
  for (const g of svg.querySelectorAll("g.area.land[data-area]:not(.badge)")) {
    land[g.dataset.area] = box(g.querySelector(".area-shape"));
  }
  const wall = svg.querySelector(".wall");
  const map = box(svg);
  const rhoyne = land["the-rhoyne"];
  const x = map[2] - 3;
  const y = (rhoyne[1] + rhoyne[3]) / 2;
  const hit = document.elementFromPoint(x, y);
  const offBoard = svg.querySelector(".off-board");
  const toMap = svg.getScreenCTM().inverse();
  const onOffBoard = ([l, t, r, b]) => offBoard !== null && [[l, t], [r, t], [l, b], [r, b],
    [(l + r) / 2, (t + b) / 2]].some(([px, py]) =>
      offBoard.isPointInFill(new DOMPoint(px, py).matrixTransform(toMap)));
  const pieces = [];
  for (const drawn of svg.querySelectorAll(".w-pieces > g")) {
    if (onOffBoard(box(drawn))) pieces.push(drawn.dataset.testid);
  }
  return {map, land, wall: wall && box(wall),
          edgeHit: hit && hit.closest("[data-area]") && hit.closest("[data-area]").dataset.area,
          edgeHitInMap: Boolean(hit && hit.closest("#board-svg")), piecesOffBoard: pieces};
}"""
"""The map's screen box, every land area's outline box, the Wall's box, which area (if any)
a click at the map's right edge beside the Rhoyne would pick, and the pieces drawn (even in
part) on the land beyond the board."""


def cut_by_the_frame(edges: dict[str, Any]) -> list[str]:
    """Land areas whose outline comes within ``EDGE_PX`` of a side of the drawn map, except
    along the Wall at Castle Black's top."""
    left, top, right, bottom = edges["map"]
    wall = edges["wall"]
    problems = []
    for area, (a0, b0, a1, b1) in sorted(edges["land"].items()):
        walled = wall is not None and wall[1] <= b0 + 1 and a0 - 1 <= wall[0] <= wall[2] <= a1 + 1
        sides = {
            "left": a0 - left,
            "top": EDGE_PX if walled else b0 - top,
            "right": right - a1,
            "bottom": bottom - b1,
        }
        problems += [f"{area}: {px:.1f} px from the {side}" for side, px in sides.items()
                     if px < EDGE_PX]  # fmt: skip
    return problems


def outside_the_map(boxes: dict[str, Any]) -> list[str]:
    """Names and pieces not wholly inside the drawn map and the pane's visible part."""
    left, top, right, bottom = boxes["svg"]
    v_left, _, v_right, _ = boxes["visible"]
    return [
        what
        for what, (a0, b0, a1, b1) in boxes["names"] + boxes["pieces"]
        if not (
            max(left, v_left) <= a0 and top <= b0 and a1 <= min(right, v_right) and b1 <= bottom
        )
    ]


def test_issue37_every_land_area_has_its_own_border_inside_the_map_edge(
    page: Page, live_core: LiveCore, artifacts: Path
) -> None:
    """At the default zoom and in "Whole map", every land area's outline (Norvos, the Rhoyne
    and Volantis on the right included) lies at least ``EDGE_PX`` inside the map's edge, the
    ground at the right edge beside the Rhoyne is the land beyond the board (no area: a click
    there picks nothing), and every name and piece lies inside the visible map, none on the
    land beyond it."""
    boxes = crowded_board(page, live_core)
    for zoom in ("default", "whole map"):
        if zoom == "whole map":
            boxes = whole_map(page)
        page.screenshot(path=str(artifacts / f"newplayer-map-edge-{zoom.replace(' ', '-')}.png"))
        edges = page.evaluate(EDGES)
        assert len(edges["land"]) > 30
        assert cut_by_the_frame(edges) == [], zoom
        assert edges["edgeHitInMap"] and edges["edgeHit"] is None, zoom
        assert outside_the_map(boxes) == [], zoom
        assert edges["piecesOffBoard"] == [], zoom
