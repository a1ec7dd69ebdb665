// The map: our own SVG board (inlined by the server), with the pieces drawn on top of it.
// Every area is a focusable, labelled button while a decision asks for it; clicks on an area
// or on the pieces standing in it go to the current decision (`setChoice`), or else show the
// area's details (`onInspect`).
import {
  area,
  areaName,
  domainOf,
  hasArea,
  houseName,
  isLimitedToken,
  orderLabel,
  orderToken,
  signed,
  unitName,
  unitType,
} from "./content.js";
import { s } from "./dom.js";
import { houseVars, markId } from "./houses.js";
import { listed, t } from "./i18n.js";
import { areaKind, decorateMap } from "./registry.js";

const UNIT = 24;
const ORDER = 26;
const GAP = 2;
/** The smallest a unit may be drawn on screen, in CSS pixels, at any zoom ("Whole map" too):
 * pieces grow in map units when the map is shown small, and a crowded area's pieces shrink
 * only while they stay at least this big. */
const MIN_UNIT_PX = 14;
/** How much larger than their normal size the pieces may grow to stay legible. */
const MAX_PIECE_SCALE = 1.6;
const ZOOM_STEPS = [0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.15, 1.3, 1.5, 1.75, 2, 2.5];

export class BoardMap {
  constructor(pane, holder) {
    this.pane = pane;
    this.holder = holder;
    this.areas = new Map();
    this.layoutCache = new Map();
    this.choice = null;
    this.zoom = null;
    this.onInspect = null;
    this.model = null;
    this.pieceScale = 1;
    this.pixels = 1;
  }

  /** Find (or fetch) the SVG map, index its areas and prepare the piece layer. */
  async init() {
    let svg = this.holder.querySelector("svg");
    if (!svg) {
      const response = await fetch("/static/map/westeros.svg", { credentials: "same-origin" });
      this.holder.innerHTML = await response.text();
      svg = this.holder.querySelector("svg");
    }
    this.svg = svg;
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("id", "board-svg");
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", t("Map of Westeros"));
    const mapTitle = svg.querySelector(":scope > title");
    if (mapTitle) mapTitle.textContent = t("Map of Westeros");
    const wall = svg.querySelector(".wall text");
    if (wall) wall.textContent = t("The Wall");
    for (const g of svg.querySelectorAll("g.area[data-area]")) {
      const id = g.dataset.area;
      if (!hasArea(id)) {
        g.remove();
        continue;
      }
      const shape = g.querySelector(".area-shape");
      const label = g.querySelector("text");
      const name = areaName(id);
      const english = area(id)?.name;
      const flat = (text) => text.replace(/\s+/g, "");
      if (label && english && name !== english && flat(label.textContent) === flat(english)) {
        label.textContent = name;
      } else if (label && areaKind(g.dataset.kind).label) {
        label.textContent = areaKind(g.dataset.kind).label();
      }
      const tooltip = g.querySelector("title");
      if (tooltip) tooltip.textContent = name;
      g.setAttribute("aria-label", name);
      g.setAttribute("data-testid", `area-${id}`);
      this.areas.set(id, {
        id,
        g,
        shape,
        x: Number(g.dataset.x),
        y: Number(g.dataset.y),
        kind: g.dataset.kind,
        between: (g.dataset.between || "").split(" ").filter(Boolean),
        box: this.labelBox(g),
        name,
      });
    }
    this.defs = s("defs", { class: "w-patterns" });
    svg.prepend(this.defs);
    // Outlines of regions go under the port badges, which straddle the coasts they run along
    // (a badge's name stays readable); a badge's own outline goes above it.
    this.highlights = s("g", { class: "w-highlights" });
    this.badgeHighlights = s("g", { class: "w-highlights" });
    this.arrows = s("g", { class: "w-arrows" });
    this.layer = s("g", { class: "w-pieces" });
    const ports = svg.querySelector(":scope > .ports");
    if (ports) ports.before(this.highlights);
    else svg.append(this.highlights);
    svg.append(this.badgeHighlights, this.layer, this.arrows);
    svg.addEventListener("focusin", (event) => this.focused(event, true));
    svg.addEventListener("focusout", (event) => this.focused(event, false));
    svg.addEventListener("click", (event) => this.clicked(event));
    svg.addEventListener("keydown", (event) => this.keyed(event));
    new ResizeObserver(() => this.applyZoom()).observe(this.pane);
    this.setZoom("width");
  }

  labelBox(g) {
    const parts = [...g.querySelectorAll(":scope > text, :scope > g[data-icon]")];
    if (g.classList.contains("badge")) parts.push(...g.querySelectorAll(":scope > .area-shape"));
    if (!parts.length) return null;
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const part of parts) {
      const b = part.getBBox();
      const m = part.transform?.baseVal?.consolidate()?.matrix;
      const dx = m ? m.e : 0;
      const dy = m ? m.f : 0;
      x0 = Math.min(x0, b.x + dx);
      y0 = Math.min(y0, b.y + dy);
      x1 = Math.max(x1, b.x + b.width + dx);
      y1 = Math.max(y1, b.y + b.height + dy);
    }
    return { x0, y0, x1, y1 };
  }

  // ---------------------------------------------------------------- zoom
  /** "width" fits the map to the pane's width, "fit" shows all of it, a number zooms. */
  setZoom(mode) {
    this.zoom = mode;
    this.applyZoom();
  }

  zoomBy(direction) {
    const current = this.currentScale();
    const next =
      direction > 0
        ? ZOOM_STEPS.find((z) => z > current + 0.01)
        : [...ZOOM_STEPS].reverse().find((z) => z < current - 0.01);
    if (next) this.setZoom(next);
  }

  currentScale() {
    const width = this.holder.getBoundingClientRect().width || 1;
    return width / Math.max(1, this.pane.clientWidth - 16);
  }

  applyZoom() {
    if (!this.svg) return;
    const vb = this.svg.viewBox.baseVal;
    const paneWidth = Math.max(200, this.pane.clientWidth - 16);
    let width = paneWidth;
    if (this.zoom === "fit") {
      width = Math.min(paneWidth, ((this.pane.clientHeight - 16) * vb.width) / vb.height);
    } else if (typeof this.zoom === "number") {
      width = paneWidth * this.zoom;
    }
    this.holder.style.width = `${Math.round(width)}px`;
    this.fitPieces(Math.round(width) / vb.width);
  }

  /** Size the pieces for `pixels` screen pixels per map unit: at least `MIN_UNIT_PX` a unit
   * (up to `MAX_PIECE_SCALE` times their size); they are laid out again when that changes. */
  fitPieces(pixels) {
    const wanted = Math.min(MAX_PIECE_SCALE, Math.max(1, MIN_UNIT_PX / (UNIT * pixels)));
    const scale = Math.ceil(wanted * 20) / 20;
    this.pixels = pixels;
    if (scale === this.pieceScale) return;
    this.pieceScale = scale;
    this.layoutCache.clear();
    if (this.model) this.render(this.model);
  }

  // ---------------------------------------------------------------- input
  clicked(event) {
    const target = event.target.closest("[data-area], [data-owner]");
    if (!target) return;
    const id = target.dataset.owner || target.dataset.area;
    this.pick(id);
  }

  keyed(event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    const target = event.target.closest("[data-area]");
    if (!target) return;
    event.preventDefault();
    this.pick(target.dataset.area);
  }

  pick(id) {
    if (this.choice && this.choice.areas.has(id)) this.choice.onPick(id);
    else this.onInspect?.(id);
  }

  /** Ask for an area: `areas` maps each choosable area to a style ("", "combat", "target",
   * "neutral", "origin"); `selected` areas are marked; `onPick(area)` is called on a click or
   * Enter. */
  setChoice(areas, onPick, selected = []) {
    this.clearChoice();
    const map = areas instanceof Map ? areas : new Map([...areas].map((a) => [a, ""]));
    this.choice = { areas: map, onPick };
    for (const [id, style] of map) {
      const area = this.areas.get(id);
      if (!area) continue;
      area.g.classList.add("is-choosable");
      area.g.setAttribute("tabindex", "0");
      area.g.setAttribute("role", "button");
      this.outline(area, `w-hl${style ? ` is-${style}` : ""}`);
    }
    this.setSelected(selected);
  }

  outline(area, cls) {
    if (!area.shape) return null;
    const copy = area.shape.cloneNode(false);
    copy.removeAttribute("style");
    copy.setAttribute("class", cls);
    copy.dataset.for = area.id;
    (area.g.classList.contains("badge") ? this.badgeHighlights : this.highlights).append(copy);
    return copy;
  }

  /** Mark `ids` as selected (the areas being decided about). */
  setSelected(ids) {
    for (const old of this.svg.querySelectorAll(".w-highlights > .is-selected")) old.remove();
    for (const area of this.areas.values()) {
      const on = ids.includes(area.id);
      area.g.classList.toggle("is-selected", on);
      if (on) this.outline(area, "w-hl is-selected");
    }
  }

  clearChoice() {
    this.choice = null;
    for (const area of this.areas.values()) {
      area.g.classList.remove("is-choosable", "is-selected");
      area.g.removeAttribute("tabindex");
      area.g.removeAttribute("role");
    }
    this.highlights.replaceChildren();
    this.badgeHighlights.replaceChildren();
    this.arrows.replaceChildren();
  }

  focused(event, on) {
    for (const old of this.svg.querySelectorAll(".w-highlights > .is-focus")) old.remove();
    const target = event.target.closest?.("[data-area]");
    if (on && target && this.areas.has(target.dataset.area)) {
      this.outline(this.areas.get(target.dataset.area), "w-hl is-focus");
    }
  }

  /** Draw arrows for planned moves: [{from, to, combat}]. */
  setArrows(moves) {
    this.arrows.replaceChildren();
    for (const move of moves) {
      const a = this.areas.get(move.from);
      const b = this.areas.get(move.to);
      if (!a || !b) continue;
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const length = Math.hypot(dx, dy) || 1;
      const ux = dx / length;
      const uy = dy / length;
      const x0 = a.x + ux * 14;
      const y0 = a.y + uy * 14;
      const x1 = b.x - ux * 16;
      const y1 = b.y - uy * 16;
      const head = `M${x1 + ux * 10} ${y1 + uy * 10}L${x1 - uy * 7} ${y1 + ux * 7}L${x1 + uy * 7} ${y1 - ux * 7}Z`;
      const cls = move.combat ? "w-arrow is-combat" : "w-arrow";
      this.arrows.append(
        s("path", { class: cls, d: `M${x0} ${y0}L${x1} ${y1}` }),
        s("path", { class: `${cls} w-arrow-head`, d: head }),
      );
    }
  }

  /** Focus the first choosable area (keyboard shortcut). */
  focusFirstChoice() {
    const first = this.svg.querySelector(".is-choosable");
    if (first) first.focus();
  }

  // ---------------------------------------------------------------- pieces
  /** Draw every piece of `model` (see board.js `mapModel`). */
  render(model) {
    this.model = model;
    this.layer.replaceChildren();
    for (const area of this.areas.values()) this.tint(area, model);
    for (const area of this.areas.values()) {
      const items = this.items(area.id, model);
      if (!items.length) continue;
      this.layer.append(this.cluster(area, items));
    }
    for (const [id, now] of Object.entries(model.changed_areas || {})) this.markChange(id, now);
    decorateMap(this, model);
  }

  /** Mark area `id` whose crowns, barrels or castle the game changed (view `changed_areas`):
   * a badge per change, its words in the badge's title. */
  markChange(id, now) {
    const where = this.areas.get(id);
    const printed = area(id);
    if (!where || !printed) return;
    const changes = [];
    const diff = (key, icon, more, less) => {
      const by = (now[key] || 0) - (printed[key] || 0);
      if (by) changes.push({ icon, by, words: by > 0 ? more : less });
    };
    diff("crowns", "icon-crown", t("power improvement (+1 crown)"), t("a crown lost"));
    diff("barrels", "icon-barrel", t("supply improvement (+1 barrel)"), t("a barrel lost"));
    diff("castle", "icon-castle", t("castle made a stronghold"), t("castle degraded"));
    if (!changes.length) return;
    const group = s("g", {
      class: "w-area-change",
      "data-testid": `change-${id}`,
      transform: `translate(${where.x - 10 * changes.length} ${where.y + 14})`,
    });
    group.append(s("title", {}, `${areaName(id)}: ${listed(changes.map((c) => c.words))}`));
    changes.forEach((c, i) => {
      const cls = c.by > 0 ? "w-change is-improved" : "w-change is-degraded";
      group.append(
        s("rect", { class: cls, x: i * 20, y: 0, width: 18, height: 18, rx: 4 }),
        s("use", { href: `#${c.icon}`, x: i * 20 + 2, y: 2, width: 14, height: 14 }),
      );
    });
    this.layer.append(group);
  }

  /** Shade `area` for its controller with the house's own pattern (its colour and its mark, so
   * colour is never the only cue), or hatch it grey when the game leaves it out of play
   * (`model.blocked`, the engine's list); its name says so for screen readers and tooltips. */
  tint(area, model) {
    const owner = model.controllers[area.id];
    const out = (model.blocked || []).includes(area.id);
    const neutral = model.neutral[area.id];
    area.g.classList.toggle("is-controlled", Boolean(owner));
    area.g.classList.toggle("is-out-of-play", out);
    area.g.classList.toggle("is-neutral-held", Boolean(neutral));
    const label = out
      ? t("{area}: out of play in this game", { area: area.name })
      : neutral
        ? t("{area}: held by a neutral force ({value})", { area: area.name, value: neutral })
        : owner
          ? t("{area}: controlled by {house}", { area: area.name, house: houseName(owner) })
          : area.name;
    area.g.setAttribute("aria-label", label);
    const tooltip = area.g.querySelector("title");
    if (tooltip) tooltip.textContent = label;
    if (!area.shape) return;
    if (out) {
      area.shape.style.fill = `url(#${this.outOfPlayPattern()})`;
      delete area.g.dataset.controller;
    } else if (owner) {
      const land = domainOf(area.id, area.kind) === "land";
      area.shape.style.fill = `url(#${this.controlPattern(owner, land)})`;
      area.g.dataset.controller = owner;
    } else {
      area.shape.style.removeProperty("fill");
      delete area.g.dataset.controller;
    }
  }

  /** The id of `house`'s control pattern over land or sea (made on first use): the house's
   * tint over the map colour, with its mark tiled across it. */
  controlPattern(house, land) {
    const id = `control-${house}-${land ? "land" : "sea"}`;
    if (!this.defs.querySelector(`#${CSS.escape(id)}`)) {
      const base = land ? "#e8d9ad" : "#a8cadb";
      const tint = `var(--tint-${house}, var(--house-${house}, #888))`;
      const mark = (x, y) =>
        s("use", {
          href: `#${markId(house)}`,
          x,
          y,
          width: 10,
          height: 10,
          class: "w-control-mark",
        });
      this.defs.append(
        s(
          "pattern",
          {
            id,
            class: "w-control-pattern",
            "data-house": house,
            patternUnits: "userSpaceOnUse",
            width: 28,
            height: 28,
          },
          s("rect", {
            width: 28,
            height: 28,
            style: { fill: `color-mix(in srgb, ${tint} ${land ? 52 : 46}%, ${base})` },
          }),
          mark(2, 2),
          mark(16, 16),
        ),
      );
    }
    return id;
  }

  /** The id of the grey hatch drawn over areas out of play (made on first use). */
  outOfPlayPattern() {
    const id = "out-of-play";
    if (!this.defs.querySelector(`#${id}`)) {
      this.defs.append(
        s(
          "pattern",
          {
            id,
            class: "w-out-of-play-pattern",
            patternUnits: "userSpaceOnUse",
            width: 10,
            height: 10,
            patternTransform: "rotate(45)",
          },
          s("rect", { width: 10, height: 10, class: "w-out-of-play-ground" }),
          s("line", { x1: 0, y1: 0, x2: 0, y2: 10, class: "w-out-of-play-hatch" }),
        ),
      );
    }
    return id;
  }

  items(id, model) {
    const out = [];
    const order = model.orders[id];
    if (order) out.push({ kind: "order", house: order[0], token: order[1], draft: order[2] });
    else if (model.hidden[id]) out.push({ kind: "hidden", house: model.hidden[id] });
    const units = model.units[id] || [];
    // The strength of a unit type the rules change (view `unit_strength`: it differs from the
    // printed one, or the printed one is 0 and comes from the rules) is drawn on the unit.
    const strength = (type) => {
      const now = (model.unit_strength || {})[type];
      const printed = unitType(type).strength;
      return now != null && (now !== printed || !printed) ? now : null;
    };
    for (const [house, type, routed] of units)
      out.push({ kind: "unit", house, type, routed, strength: routed ? null : strength(type) });
    if (model.power_tokens[id]) out.push({ kind: "power", house: model.power_tokens[id] });
    if (model.garrisons[id]) out.push({ kind: "garrison", value: model.garrisons[id] });
    if (model.neutral[id]) out.push({ kind: "neutral", value: model.neutral[id] });
    return out;
  }

  size(item) {
    return item.kind === "order" || item.kind === "hidden"
      ? ORDER
      : item.kind === "power"
        ? 19
        : UNIT;
  }

  cluster(area, items) {
    const rows =
      items.length > 5
        ? [items.slice(0, Math.ceil(items.length / 2)), items.slice(Math.ceil(items.length / 2))]
        : [items];
    const widths = rows.map((row) => row.reduce((w, item) => w + this.size(item) + GAP, -GAP));
    const width = Math.max(...widths);
    const height = rows.length * (ORDER + GAP) - GAP;
    const k = this.pieceScale;
    const key = `${area.id}:${width}x${height}`;
    let spot = this.layoutCache.get(key);
    if (!spot) {
      spot = this.place(area, width * k, height * k);
      this.layoutCache.set(key, spot);
    }
    const scale = spot.scale * k;
    const group = s("g", {
      class: "w-cluster",
      "data-owner": area.id,
      "data-testid": `pieces-${area.id}`,
      transform: `translate(${spot.x - (width * scale) / 2} ${spot.y - (height * scale) / 2}) scale(${scale})`,
    });
    group.append(s("title", {}, this.describe(area.id, items)));
    rows.forEach((row, r) => {
      let x = (width - widths[r]) / 2;
      const y = r * (ORDER + GAP) + ORDER / 2;
      for (const item of row) {
        const size = this.size(item);
        group.append(this.piece(item, x + size / 2, y, size));
        x += size + GAP;
      }
    });
    return group;
  }

  /** Where a cluster of `width`×`height` fits best: inside the area, clear of its label and
   * of every other area's label, shrunk (never below `MIN_UNIT_PX` a unit) only if it must. */
  place(area, width, height) {
    const fillShape = this.fillShapeFor(area);
    const marker = Boolean(areaKind(area.kind).marker);
    const box = area.box || { x0: area.x - 20, y0: area.y - 8, x1: area.x + 20, y1: area.y + 8 };
    const candidates = [];
    const unit = UNIT * this.pieceScale * this.pixels;
    const scales = [1, 0.85, 0.7].filter((z) => z === 1 || unit * z >= MIN_UNIT_PX - 0.01);
    for (const scale of scales) {
      const w = width * scale;
      const hgt = height * scale;
      const cx = marker ? area.x : (box.x0 + box.x1) / 2;
      const spots = [
        [cx, box.y1 + hgt / 2 + 3],
        [cx, box.y0 - hgt / 2 - 3],
        [box.x1 + w / 2 + 4, (box.y0 + box.y1) / 2],
        [box.x0 - w / 2 - 4, (box.y0 + box.y1) / 2],
        [cx, box.y1 + hgt / 2 + 14],
        [cx, box.y0 - hgt / 2 - 14],
        [cx + w / 2, box.y1 + hgt / 2 + 3],
        [cx - w / 2, box.y1 + hgt / 2 + 3],
        [cx + w / 2, box.y0 - hgt / 2 - 3],
        [cx - w / 2, box.y0 - hgt / 2 - 3],
        [cx, box.y1 + hgt / 2 + 30],
        [cx, box.y0 - hgt / 2 - 30],
        [box.x1 + w / 2 + 4, box.y1 + hgt / 2],
        [box.x0 - w / 2 - 4, box.y1 + hgt / 2],
        [box.x1 + w / 2 + 4, box.y0 - hgt / 2],
        [box.x0 - w / 2 - 4, box.y0 - hgt / 2],
      ];
      for (const [x, y] of spots) {
        candidates.push({
          x,
          y,
          scale,
          score: this.fit(fillShape, area, x, y, w, hgt) - (1 - scale) * 0.5,
        });
      }
    }
    candidates.sort((a, b) => b.score - a.score);
    return candidates[0];
  }

  /** The shape a cluster of `area`'s pieces should lie in (a plugin's area kind may name
   * another one through its `fillShape`). */
  fillShapeFor(area) {
    const style = areaKind(area.kind);
    return (style.fillShape && style.fillShape(area, this)) || area.shape;
  }

  fit(shape, area, cx, cy, w, hgt) {
    if (!shape || typeof shape.isPointInFill !== "function") return 0;
    let inside = 0;
    let total = 0;
    const point = this.svg.createSVGPoint();
    for (const fx of [-0.5, -0.25, 0, 0.25, 0.5]) {
      for (const fy of [-0.5, 0, 0.5]) {
        point.x = cx + fx * w;
        point.y = cy + fy * hgt;
        total += 1;
        if (shape.isPointInFill(point)) inside += 1;
      }
    }
    let score = inside / total;
    const markers = [...this.areas.values()].filter(
      (a) => a !== area && areaKind(a.kind).marker,
    );
    for (const other of markers) {
      if (Math.abs(other.x - cx) < w / 2 + 18 && Math.abs(other.y - cy) < hgt / 2 + 9) score -= 0.6;
    }
    if (areaKind(area.kind).marker) {
      if (Math.abs(area.x - cx) < w / 2 + 18 && Math.abs(area.y - cy) < hgt / 2 + 8) score -= 1;
    }
    // never over the name of another area (a port's, a neighbour's), nor off the map
    for (const other of this.areas.values()) {
      const b = other.box;
      if (other === area || !b) continue;
      if (cx - w / 2 < b.x1 && cx + w / 2 > b.x0 && cy - hgt / 2 < b.y1 && cy + hgt / 2 > b.y0)
        score -= 1.5;
    }
    const vb = this.svg.viewBox.baseVal;
    if (cx - w / 2 < vb.x || cy - hgt / 2 < vb.y) score -= 2;
    if (cx + w / 2 > vb.x + vb.width || cy + hgt / 2 > vb.y + vb.height) score -= 2;
    return score;
  }

  /** A spot for a `size`-wide round marker (a plugin's token) beside `area`'s label, inside its
   * shape (never on a neighbour nor on the land beyond the board), clear of every label, of the
   * pieces drawn so far and of the map's edges; null if none is clear. */
  freeSpot(area, size) {
    const box = area.box || { x0: area.x - 10, y0: area.y - 10, x1: area.x + 10, y1: area.y + 10 };
    const r = (size * this.pieceScale) / 2;
    const midY = (box.y0 + box.y1) / 2;
    const midX = (box.x0 + box.x1) / 2;
    const spots = [
      [box.x1 + r + 3, midY],
      [box.x0 - r - 3, midY],
      [box.x1 + r + 3, box.y0 - r],
      [box.x0 - r - 3, box.y0 - r],
      [midX, box.y0 - r - 3],
      [box.x1 + r + 3, box.y1 + r],
      [box.x0 - r - 3, box.y1 + r],
      [midX, box.y1 + r + 3],
    ];
    const vb = this.svg.viewBox.baseVal;
    const taken = [...this.areas.values()].map((a) => a.box).filter(Boolean);
    for (const drawn of this.layer.children) {
      const b = drawn.getBBox();
      const m = drawn.transform?.baseVal?.consolidate()?.matrix;
      const [a, dx, dy] = m ? [m.a, m.e, m.f] : [1, 0, 0];
      taken.push({
        x0: b.x * a + dx,
        y0: b.y * a + dy,
        x1: (b.x + b.width) * a + dx,
        y1: (b.y + b.height) * a + dy,
      });
    }
    const within = ([x, y]) =>
      area.g.classList.contains("badge") ||
      [[0, 0], [r, 0], [-r, 0], [0, r], [0, -r]].every(([dx, dy]) =>
        area.shape.isPointInFill(new DOMPoint(x + dx, y + dy)),
      );
    const clear = ([x, y]) =>
      within([x, y]) &&
      x - r >= vb.x &&
      y - r >= vb.y &&
      x + r <= vb.x + vb.width &&
      y + r <= vb.y + vb.height &&
      !taken.some((b) => x - r < b.x1 && x + r > b.x0 && y - r < b.y1 && y + r > b.y0);
    const spot = spots.find(clear);
    return spot ? { x: spot[0], y: spot[1], scale: this.pieceScale } : null;
  }

  describe(id, items) {
    const parts = [areaName(id)];
    const counts = new Map();
    for (const item of items) {
      if (item.kind === "unit") {
        const key = `${item.house}|${item.type}`;
        counts.set(key, (counts.get(key) || 0) + 1);
      } else if (item.kind === "order") {
        parts.push(
          t("{house}: {order}", { house: houseName(item.house), order: orderLabel(item.token) }),
        );
      } else if (item.kind === "hidden") {
        parts.push(t("{house}: an order, face down", { house: houseName(item.house) }));
      } else if (item.kind === "power") {
        parts.push(t("{house} power token", { house: houseName(item.house) }));
      } else if (item.kind === "garrison") {
        parts.push(t("Garrison {value}", { value: item.value }));
      } else if (item.kind === "neutral") {
        parts.push(t("Neutral force {value}", { value: item.value }));
      }
    }
    for (const [key, n] of counts) {
      const [house, type] = key.split("|");
      parts.push(
        t("{house}: {count} {unit}", {
          house: houseName(house),
          count: n,
          unit: unitName(type, n),
        }),
      );
    }
    const grown = items.find((i) => i.kind === "unit" && i.strength != null);
    if (grown)
      parts.push(
        t("{unit} strength {value}", { unit: unitName(grown.type, 1), value: grown.strength }),
      );
    if (items.some((i) => i.routed)) parts.push(t("routed units cannot march"));
    return parts.join(" · ");
  }

  piece(item, x, y, size) {
    const half = size / 2;
    if (item.kind === "unit") {
      const cls = `w-unit unit-${item.type}${item.routed ? " is-routed" : ""}`;
      const drawn = s("use", {
        class: cls,
        href: `#unit-${item.type}`,
        x: x - half,
        y: y - half,
        width: size,
        height: size,
        style: houseVars(item.house),
        "data-house": item.house,
        "data-unit": item.type,
        transform: item.routed ? `rotate(90 ${x} ${y})` : null,
      });
      if (item.strength == null) return drawn;
      // A unit whose strength the game changed (view `unit_strength`) shows it on a badge.
      return s(
        "g",
        { class: "w-unit-strong", "data-unit": item.type, "data-strength": item.strength },
        drawn,
        s("circle", { class: "w-strength-badge", cx: x + half * 0.6, cy: y - half * 0.6, r: 6 }),
        s(
          "text",
          { class: "w-strength-text", x: x + half * 0.6, y: y - half * 0.6 + 3.5 },
          String(item.strength),
        ),
      );
    }
    if (item.kind === "order" || item.kind === "hidden") return this.orderPiece(item, x, y, size);
    if (item.kind === "power") {
      return s(
        "g",
        { class: "w-power", style: houseVars(item.house), "data-house": item.house },
        s("use", { href: "#icon-power", x: x - half, y: y - half, width: size, height: size }),
        s("use", {
          href: `#${markId(item.house)}`,
          x: x - half * 0.6,
          y: y - half * 0.6,
          width: half * 1.2,
          height: half * 1.2,
        }),
      );
    }
    const iconId = item.kind === "garrison" ? "icon-garrison" : "icon-neutral";
    return s(
      "g",
      { class: `w-${item.kind}` },
      s("use", { href: `#${iconId}`, x: x - half, y: y - half, width: size, height: size }),
      s("text", { x, y: y + half * 0.4, class: "w-piece-number" }, String(item.value)),
    );
  }

  orderPiece(item, x, y, size) {
    const r = size / 2;
    const vars = houseVars(item.house);
    if (item.kind === "hidden") {
      return s(
        "g",
        { class: "w-order is-hidden", style: vars, "data-house": item.house },
        s("circle", { cx: x, cy: y, r: r - 0.5, class: "w-order-back" }),
        s("use", {
          href: `#${markId(item.house)}`,
          x: x - r * 0.55,
          y: y - r * 0.55,
          width: r * 1.1,
          height: r * 1.1,
          class: "w-order-mark",
        }),
      );
    }
    const token = orderToken(item.token);
    const group = s(
      "g",
      {
        class: `w-order order-${token.type}${item.draft ? " is-draft" : ""}${isLimitedToken(item.token) ? " is-limited" : ""}`,
        style: vars,
        "data-house": item.house,
        "data-order": item.token,
      },
      s("circle", { cx: x, cy: y, r: r - 0.5, class: "w-order-face" }),
      s("use", {
        href: `#order-${token.type}`,
        x: x - r * 0.65,
        y: y - r * 0.7,
        width: r * 1.3,
        height: r * 1.3,
        style: { "--ink": "#2b2118" },
      }),
    );
    if (token.bonus !== 0) {
      group.append(
        s(
          "text",
          { x: x + r * 0.72, y: y + r * 0.95, class: "w-order-bonus" },
          signed(token.bonus),
        ),
      );
    }
    if (token.star) {
      group.append(
        s("use", {
          href: "#icon-star",
          x: x + r * 0.35,
          y: y - r * 1.05,
          width: r * 0.8,
          height: r * 0.8,
          class: "w-order-star",
        }),
      );
    }
    return group;
  }
}

/** A legend entry: a unit silhouette as a small inline SVG (for panels). */
export function unitIcon(house, type, routed = false) {
  return s(
    "svg",
    {
      class: `w-icon w-unit-icon${routed ? " is-routed" : ""}`,
      viewBox: "-10 -10 20 20",
      style: houseVars(house),
      role: "img",
      "aria-label": unitName(type),
    },
    s("use", { href: `#unit-${type}`, x: -10, y: -10, width: 20, height: 20 }),
  );
}

/** A small order token as inline SVG (for panels and buttons). */
export function orderIcon(tokenId, house) {
  const token = orderToken(tokenId);
  const svg = s(
    "svg",
    {
      class: `w-icon w-order-icon order-${token.type}${isLimitedToken(tokenId) ? " is-limited" : ""}`,
      viewBox: "-11 -11 22 22",
      style: house ? houseVars(house) : {},
      "aria-hidden": "true",
    },
    s("circle", { r: 10, class: "w-order-face" }),
    s("use", {
      href: `#order-${token.type}`,
      x: -7,
      y: -7.5,
      width: 14,
      height: 14,
      style: { "--ink": "#2b2118" },
    }),
  );
  if (token.star) svg.append(s("use", { href: "#icon-star", x: 2, y: -11, width: 9, height: 9 }));
  return svg;
}

/** Announce a short status message for screen readers. */
export function announce(text) {
  const live = document.getElementById("announce");
  if (live) live.textContent = text;
}
