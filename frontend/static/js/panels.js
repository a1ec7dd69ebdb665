// The side panels: tracks, houses, hands and discards, Westeros cards, combat, game log.
import {
  TRACKS,
  area,
  areaName,
  cardName,
  dominanceName,
  houseCard,
  houseName,
  orderLabel,
  rawContent,
  seats,
  trackName,
  westerosCard,
  wildlingCard,
} from "./content.js";
import { fill, h, icon, s } from "./dom.js";
import { houseVars, markId } from "./houses.js";
import { listed, t, tc, tn } from "./i18n.js";
import { describe, quiet, restrictionName, unitSummary } from "./log.js";
import { unitIcon } from "./map.js";
import { pluginSeatLabel } from "./registry.js";


/** A house chip: its mark in its colour and (optionally) its name. */
export function houseChip(house, { name = true, you = null } = {}) {
  const chip = h(
    "span",
    {
      class: `house-chip house-${house}`,
      style: houseVars(house),
      "data-house": house,
      title: houseName(house),
    },
    s(
      "svg",
      { class: "house-chip-mark", viewBox: "-10 -10 20 20", "aria-hidden": "true" },
      s("circle", { r: 10 }),
      s("use", { href: `#${markId(house)}`, x: -7, y: -7, width: 14, height: 14 }),
    ),
    name ? h("span", { class: "house-chip-name" }, houseName(house)) : null,
  );
  if (you && house === you) chip.classList.add("is-you");
  return chip;
}

/** Columns of an influence track: one row for up to 4 houses, else two rows, so that every
 * house's name fits whole beside its position number. */
function trackColumns(order) {
  const n = (order || []).length;
  return n > 4 ? Math.ceil(n / 2) : n;
}

function scale(title, iconId, max, min, valueOf, houses, marker = null, testid = null) {
  const cells = [];
  for (let v = min; v <= max; v += 1) {
    const here = houses.filter((house) => valueOf(house) === v);
    cells.push(
      h(
        "li",
        { class: `scale-cell${marker === v ? " is-marked" : ""}`, "data-value": v },
        h("span", { class: "scale-value" }, String(v)),
        h(
          "span",
          { class: "scale-houses" },
          here.map((house) => houseChip(house, { name: false })),
        ),
      ),
    );
  }
  return h(
    "div",
    { class: "scale", "data-testid": testid },
    h("h3", { class: "scale-title" }, iconId ? icon(iconId) : null, title),
    h("ol", { class: "scale-cells" }, cells),
  );
}

/** Influence tracks with dominance tokens, then the supply, victory, wildling and round tracks.
 * The victory track shows the engine's score of each house (the view's `victory.points`: castle
 * areas, RULES 9.1, or as a plugin scores a house), titled by castles when every house scores
 * its castle areas. */
export function renderTracks(root, view) {
  const starLimits = rawContent().star_limits?.[String(view.houses.length)] || [];
  const dominanceIcon = {
    iron_throne: "icon-throne",
    fiefdoms: "icon-blade",
    kings_court: "icon-raven",
  };
  const influence = TRACKS.map((track) =>
    h(
      "div",
      { class: "influence", "data-track": track, "data-testid": `track-${track}` },
      h(
        "h3",
        { class: "influence-title" },
        trackName(track),
        h(
          "span",
          { class: "influence-dominance", title: dominanceName(track) },
          icon(dominanceIcon[track]),
          dominanceName(track),
          track === "fiefdoms" && view.blade_used ? h("span", { class: "used" }, t("used")) : null,
          track === "kings_court" && view.raven_used
            ? h("span", { class: "used" }, t("used"))
            : null,
        ),
      ),
      h(
        "ol",
        { class: "influence-order", style: { "--n": String(trackColumns(view.tracks[track])) } },
        (view.tracks[track] || []).map((house, i) =>
          h(
            "li",
            { class: "influence-slot", "data-house": house },
            h("span", { class: "influence-pos" }, String(i + 1)),
            houseChip(house, { you: view.house }),
            track === "kings_court" && starLimits[i]
              ? h(
                  "span",
                  { class: "influence-stars", title: t("starred orders") },
                  "★".repeat(starLimits[i]),
                )
              : null,
          ),
        ),
      ),
    ),
  );
  const victory = view.victory;
  fill(
    root,
    h("h2", { class: "panel-title" }, t("Influence")),
    influence,
    h("h2", { class: "panel-title" }, t("Tracks")),
    scale(
      t("Supply"),
      "icon-barrel",
      view.limits.max_supply,
      0,
      (house) => view.supply[house],
      view.houses,
      null,
      "supply-track",
    ),
    scale(
      victory.by_castles ? t("Victory (castles)") : t("Victory points"),
      "icon-castle",
      Math.max(victory.goal, ...Object.values(victory.points)),
      0,
      (house) => victory.points[house],
      view.houses,
      null,
      "victory-track",
    ),
    h(
      "div",
      { class: "scale scale-compact", "data-testid": "wildling-track" },
      h("h3", { class: "scale-title" }, icon("icon-wildling"), t("Wildling threat")),
      h(
        "ol",
        { class: "scale-cells" },
        Array.from({ length: view.limits.max_threat / 2 + 1 }, (_, i) => i * 2).map((v) =>
          h(
            "li",
            {
              class: `scale-cell${view.threat === v ? " is-marked" : ""}${v === view.limits.max_threat ? " is-danger" : ""}`,
            },
            h("span", { class: "scale-value" }, String(v)),
          ),
        ),
      ),
    ),
    h(
      "div",
      { class: "scale scale-compact", "data-testid": "round-track" },
      h("h3", { class: "scale-title" }, t("Round")),
      h(
        "ol",
        { class: "scale-cells" },
        Array.from({ length: view.limits.last_round }, (_, i) => i + 1).map((v) =>
          h(
            "li",
            { class: `scale-cell${view.round === v ? " is-marked" : ""}` },
            h("span", { class: "scale-value" }, String(v)),
          ),
        ),
      ),
    ),
  );
}

/** A house card as a small tile: name, strength, swords, fortifications and its text. */
export function cardTile(id, attrs = {}) {
  const card = houseCard(id);
  return h(
    "div",
    { class: "card-tile", "data-card": id, title: tc(card.text || ""), ...attrs },
    h("span", { class: "card-strength" }, card.strength ?? "?"),
    h("span", { class: "card-name" }, cardName(id)),
    h(
      "span",
      { class: "card-icons" },
      Array.from({ length: card.swords || 0 }, () =>
        icon("icon-sword", { class: "card-icon", title: t("sword") }),
      ),
      Array.from({ length: card.fortifications || 0 }, () =>
        icon("icon-fort", { class: "card-icon", title: t("fortification") }),
      ),
    ),
    card.text ? h("span", { class: "card-text" }, tc(card.text)) : null,
  );
}

/** Every house: power, castles (the engine's count; when a plugin scores some house another
 * way, each house's victory points instead, as the victory track counts them: Targaryen's
 * loyalty, RULES 11.6.4), supply, cards in hand and discards; the seat's own hand first. */
export function renderHouses(root, view) {
  const victory = view.victory;
  const score = victory.by_castles
    ? (house) => stat(t("Castles"), victory.castles[house], "castles", t("castle areas controlled"))
    : (house) => stat(t("Points"), victory.points[house], "points", t("victory points"));
  const onBoard = {};
  for (const house of Object.values(view.power_tokens)) onBoard[house] = (onBoard[house] || 0) + 1;
  const seat = seats();
  const order = view.tracks.iron_throne || view.houses;
  const rows = order.map((house) =>
    h(
      "li",
      {
        class: `house-row${house === view.house ? " is-you" : ""}${view.waiting_for.includes(house) ? " is-waiting" : ""}`,
        "data-house": house,
        "data-testid": `house-${house}`,
      },
      h(
        "div",
        { class: "house-row-head" },
        houseChip(house, { you: view.house }),
        h(
          "span",
          { class: "house-seat" },
          seatLabel(house, view, seat),
        ),
        // table voice (online/voice.js) shows here who speaks or talks privately
        h("span", { class: "voice-badge", dataset: { voiceHouse: house }, hidden: true }),
        view.waiting_for.includes(house)
          ? h("span", { class: "house-thinking", title: t("deciding") }, "…")
          : null,
        (view.committed || []).includes(house)
          ? h(
              "span",
              { class: "house-committed", title: t("committed"), "data-testid": "committed" },
              "✓",
            )
          : null,
      ),
      h(
        "dl",
        { class: "house-stats" },
        stat(t("Power"), view.power[house], "power", t("available power tokens")),
        stat(t("On board"), onBoard[house] || 0, "board", t("power tokens on the board")),
        score(house),
        stat(t("Supply"), view.supply[house], "supply", t("supply position")),
        stat(t("Cards"), (view.hands[house] || []).length, "cards", t("house cards in hand")),
      ),
      house === view.house
        ? null
        : h(
            "details",
            { class: "house-cards" },
            h("summary", {}, t("Hand and discards")),
            h(
              "div",
              { class: "card-list" },
              (view.hands[house] || []).map((id) => cardTile(id)),
            ),
            discards(view, house),
          ),
    ),
  );
  fill(
    root,
    h("h2", { class: "panel-title" }, t("Houses")),
    h("ol", { class: "house-list" }, rows),
  );
}

/** Who plays `house` as its row says: you, the AI, or for a house without a seat the words
 * a plugin gives (`seatLabel`: a vassal's commander, 11.10.3). */
function seatLabel(house, view, seat) {
  if (house === view.house) return t("you");
  if (seat[house]) return seat[house] === "ai" ? t("AI") : "";
  return pluginSeatLabel(house, view) || "";
}

function stat(label, value, key, title) {
  return h(
    "div",
    { class: `house-stat stat-${key}`, title },
    h("dt", {}, label),
    h("dd", { "data-stat": key }, String(value ?? 0)),
  );
}

function discards(view, house) {
  const pile = view.discards[house] || [];
  return h(
    "div",
    { class: "discards" },
    h("h4", {}, t("Discards")),
    pile.length
      ? h(
          "div",
          { class: "card-list is-discarded" },
          pile.map((id) => cardTile(id)),
        )
      : h("p", { class: "muted" }, t("none")),
  );
}

/** The seat's own hand and discard pile. */
export function renderHand(root, view) {
  if (!view.house) {
    root.hidden = true;
    return;
  }
  root.hidden = false;
  fill(
    root,
    h("h2", { class: "panel-title" }, t("Your house cards")),
    h(
      "div",
      { class: "card-list", "data-testid": "hand" },
      (view.hands[view.house] || []).map((id) => cardTile(id)),
    ),
    h("div", { "data-testid": "discards" }, discards(view, view.house)),
  );
}

/** The Westeros cards of the round, restrictions and what the seat knows of the wildlings. */
export function renderWesteros(root, view) {
  const cards = (view.revealed_westeros || []).map((id, i) => {
    const card = westerosCard(id);
    return h(
      "li",
      { class: "westeros-card", "data-card": id },
      h("span", { class: "westeros-deck" }, ["I", "II", "III", "IV", "V"][card.deck - 1] || String(i + 1)),
      h(
        "span",
        { class: "westeros-name" },
        tc(card.name),
        card.wildling_icon
          ? icon("icon-wildling", { class: "westeros-wild", title: t("wildling icon") })
          : null,
      ),
      card.text ? h("span", { class: "westeros-text" }, tc(card.text)) : null,
    );
  });
  const top = view.wildling_top ? wildlingCard(view.wildling_top) : null;
  fill(
    root,
    h("h2", { class: "panel-title" }, t("Westeros")),
    cards.length
      ? h("ol", { class: "westeros-cards" }, cards)
      : h("p", { class: "muted" }, t("No Westeros cards yet (round 1).")),
    (view.restrictions || []).length
      ? h(
          "p",
          { class: "restrictions" },
          t("No {orders} orders this round.", {
            orders: listed(view.restrictions.map(restrictionName)),
          }),
        )
      : null,
    h(
      "p",
      { class: "wildlings" },
      icon("icon-wildling"),
      t("Wildling threat {threat} · {n} wildling cards", {
        threat: view.threat,
        n: view.wildling_deck_size,
      }),
    ),
    top
      ? h(
          "div",
          { class: "wildling-top" },
          h("strong", {}, t("Top wildling card: {name}", { name: tc(top.name) })),
          top.text ? h("p", {}, tc(top.text)) : null,
        )
      : null,
  );
}

/** The newest combat told by the log `entries` (the engine's events), carried on from
 * `previous`: its houses, area, cards, strength before and after the house cards and the
 * victor. The panel shows it once the combat is over. */
export function lastCombat(entries, previous = null) {
  let last = previous;
  for (const entry of entries || []) {
    if (entry.kind === "combat") {
      last = {
        area: entry.area,
        attacker: { house: entry.attacker, card: null, before: null, after: null },
        defender: { house: entry.defender, card: null, before: null, after: null },
        winner: null,
      };
    } else if (last && entry.kind === "initial_strength") {
      last.attacker.before = entry.attacker;
      last.defender.before = entry.defender;
    } else if (last && entry.kind === "house_cards_revealed") {
      last.attacker.card = entry.attacker[1];
      last.defender.card = entry.defender[1];
    } else if (last && (entry.kind === "house_card_replaced" || entry.kind === "no_house_card")) {
      // a card played instead (5.4.4: Tyrion Lannister, Jaqen H'ghar), or none left to play
      const side = entry.house === last.attacker.house ? last.attacker : last.defender;
      side.card = entry.card ?? null;
    } else if (last && entry.kind === "combat_won") {
      [last.attacker.after, last.defender.after] = entry.strength;
      last.winner = entry.winner === last.attacker.house ? "attacker" : "defender";
    }
  }
  return last;
}

/** This round's combat results and wildling results told by the log `entries`, carried on
 * from `previous` and started afresh by each new round: {round, lines: [{kind, text}]}, the
 * server's sentences of each combat's victor (with the cards played) and of the wildlings. */
export function roundResults(entries, previous = null) {
  let results = previous || { round: 0, lines: [] };
  let cards = null;
  for (const entry of entries || []) {
    if (!entry || typeof entry !== "object") continue;
    if (entry.kind === "round") results = { round: entry.round, lines: [] };
    else if (entry.kind === "house_cards_revealed") {
      cards = [entry.attacker?.[1], entry.defender?.[1]];
    } else if (entry.kind === "combat_won") {
      results.lines = [...results.lines, { kind: "combat", text: describe(entry), cards }];
      cards = null;
    } else if (entry.kind === "wildling_bids" || entry.kind === "wildling_card") {
      results.lines = [...results.lines, { kind: "wildlings", text: describe(entry) }];
    }
  }
  return results;
}

/** The list of this round's results (see roundResults), folded: the person opens it to read
 * a combat or wildling result that has already gone by. */
function roundResultsList(results, open) {
  const lines = results?.lines || [];
  if (!lines.length) return null;
  return h(
    "details",
    { class: "round-results", "data-testid": "round-results", open: open ? "" : null },
    h(
      "summary",
      {},
      t("This round's combats and wildling results ({n})", { n: lines.length }),
    ),
    h(
      "ol",
      { class: "round-results-list" },
      lines.map((line) =>
        h(
          "li",
          { "data-kind": line.kind },
          line.text,
          line.cards?.every(Boolean)
            ? h(
                "span",
                { class: "muted" },
                ` (${t("{a} against {d}", { a: cardName(line.cards[0]), d: cardName(line.cards[1]) })})`,
              )
            : null,
        ),
      ),
    ),
  );
}

function strengthLines(which, before, after) {
  return [
    before != null
      ? h(
          "p",
          { class: "combat-strength is-before", "data-testid": `combat-before-${which}` },
          t("Before house cards: {value}", { value: before }),
        )
      : null,
    after != null
      ? h(
          "p",
          { class: "combat-strength is-after", "data-testid": `combat-after-${which}` },
          t("After house cards: {value}", { value: after }),
        )
      : null,
  ];
}

/** The combat being resolved: both sides, support, cards and the strengths before and after
 * the house cards (the engine's totals, RULES 5.4.2, 5.4.7); once it is over, the last combat
 * (`last`, see lastCombat) until the next one. */
export function renderCombat(root, view, last = null, results = null) {
  const combat = view.combat;
  if (!combat) {
    renderLastCombat(root, view, last, results);
    return;
  }
  root.hidden = false;
  root.dataset.state = "running";
  const data = combat.data || {};
  const side = (which, i) => {
    const s0 = combat[which];
    return h(
      "div",
      {
        class: `combat-side combat-${which}${combat.winner === which ? " is-winner" : ""}`,
        "data-testid": `combat-${which}`,
      },
      h("h3", {}, which === "attacker" ? t("Attacker") : t("Defender")),
      houseChip(s0.house, { you: view.house }),
      h(
        "div",
        { class: "combat-units" },
        s0.units.map(([type, routed]) => unitIcon(s0.house, type, routed)),
        h("span", { class: "sr-only" }, unitSummary(s0.units.map((u) => u[0]))),
      ),
      s0.support.length
        ? h(
            "p",
            { class: "combat-support" },
            t("Support from {areas}", { areas: listed(s0.support.map(areaName)) }),
          )
        : null,
      s0.card ? cardTile(s0.card) : h("p", { class: "muted" }, t("House card not revealed yet")),
      strengthLines(which, data.initial_strength?.[i], data.strength?.[i]),
    );
  };
  fill(
    root,
    h("h2", { class: "panel-title" }, t("Combat in {area}", { area: areaName(combat.area) })),
    h(
      "div",
      { class: "combat-sides" },
      side("attacker", 0),
      h("span", { class: "combat-vs" }, t("vs")),
      side("defender", 1),
    ),
    combat.winner
      ? h(
          "p",
          { class: "combat-result" },
          t("{house} wins.", { house: houseName(combat[combat.winner].house) }),
        )
      : null,
  );
}

function renderLastCombat(root, view, last, results) {
  const open = root.querySelector("[data-testid=round-results]")?.open; // kept across redraws
  const list = roundResultsList(results, open);
  root.hidden = (!last || !last.winner) && !list;
  if (root.hidden) {
    root.replaceChildren();
    return;
  }
  if (!last || !last.winner) {
    root.dataset.state = "over";
    fill(root, h("h2", { class: "panel-title" }, t("This round")), list);
    return;
  }
  root.dataset.state = "over";
  const side = (which) =>
    h(
      "div",
      {
        class: `combat-side combat-${which}${last.winner === which ? " is-winner" : ""}`,
        "data-testid": `combat-${which}`,
      },
      h("h3", {}, which === "attacker" ? t("Attacker") : t("Defender")),
      houseChip(last[which].house, { you: view.house }),
      last[which].card ? cardTile(last[which].card) : null,
      strengthLines(which, last[which].before, last[which].after),
    );
  fill(
    root,
    h(
      "h2",
      { class: "panel-title" },
      t("Last combat: {area}", { area: areaName(last.area) }),
    ),
    h(
      "div",
      { class: "combat-sides" },
      side("attacker"),
      h("span", { class: "combat-vs" }, t("vs")),
      side("defender"),
    ),
    h(
      "p",
      { class: "combat-result" },
      t("{house} wins.", { house: houseName(last[last.winner].house) }),
    ),
    list,
  );
}

/** What the board shows about one area (clicked on the map when no decision asks for it). */
export function renderAreaInfo(root, view, id, controllers) {
  const facts = area(id);
  if (!id || !facts) {
    root.hidden = true;
    return;
  }
  root.hidden = false;
  const units = view.units[id] || [];
  const order = view.orders[id];
  const owner = controllers[id];
  const castle = [null, t("castle"), t("stronghold")][facts.castle] || null;
  const facts_ = [
    castle,
    facts.crowns ? tn("{n} crown", "{n} crowns", facts.crowns) : null,
    facts.barrels ? tn("{n} supply barrel", "{n} supply barrels", facts.barrels) : null,
    facts.home_of ? t("home of {house}", { house: houseName(facts.home_of) }) : null,
  ].filter(Boolean);
  fill(
    root,
    h(
      "div",
      { class: "area-info-head" },
      h("h2", { class: "panel-title" }, areaName(id)),
      h(
        "button",
        {
          type: "button",
          class: "button button-small",
          "aria-label": t("Close"),
          onclick: () => {
            root.hidden = true;
          },
        },
        "×",
      ),
    ),
    facts_.length ? h("p", { class: "muted" }, facts_.join(" · ")) : null,
    h("p", {}, owner ? [t("Controlled by"), " ", houseChip(owner)] : t("Nobody controls it.")),
    units.length
      ? h(
          "p",
          { class: "area-info-units" },
          units.map(([house, type, routed]) => unitIcon(house, type, routed)),
          unitSummary(units.map((u) => u[1])),
          units.some((u) => u[2]) ? ` (${t("routed units cannot march")})` : "",
        )
      : null,
    order ? h("p", {}, t("Order: {order}", { order: orderLabel(order[1]) })) : null,
    view.power_tokens[id]
      ? h("p", {}, t("Power token of {house}", { house: houseName(view.power_tokens[id]) }))
      : null,
    view.garrisons[id] ? h("p", {}, t("Garrison {value}", { value: view.garrisons[id] })) : null,
    view.neutral_forces[id]
      ? h(
          "p",
          { "data-testid": "area-neutral-force" },
          t(
            "Neutral force {value}: it holds this area; only an attack at least that strong may enter.",
            { value: view.neutral_forces[id] },
          ),
        )
      : null,
    (view.blocked || []).includes(id)
      ? h(
          "p",
          { class: "area-info-out", "data-testid": "area-out-of-play" },
          t("Out of play in this game: no unit may enter, retreat into or be mustered in it."),
        )
      : null,
  );
}

/** Append log entries (newest last) and keep the newest in view. The same sentence twice in a
 * row (two footmen mustered in one castle) is one line with a count, never a duplicate line. */
export function appendLog(list, entries) {
  for (const entry of entries || []) {
    if (quiet(entry)) continue;
    const text = describe(entry);
    if (!text) continue;
    const last = list.lastElementChild;
    if (last && last.dataset.text === text) {
      const times = Number(last.dataset.times || "1") + 1;
      last.dataset.times = String(times);
      fill(last, text, " ", h("span", { class: "log-times" }, t("(×{n})", { n: times })));
      continue;
    }
    const kind = entry && entry.kind ? entry.kind : "text";
    const item = h("li", { class: `log-entry log-${kind}`, "data-text": text }, text);
    if (entry && entry.kind === "round") {
      item.classList.add("log-round");
      item.dataset.round = String(entry.round);
    }
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
}

/** The top bar: round, phase and who is deciding. */
export function renderTopbar(root, view, phase) {
  const waiting = view.waiting_for || [];
  fill(
    root.querySelector("#round-info"),
    h("strong", {}, t("Round {round} of {last}", { round: view.round, last: view.limits.last_round })),
    phase ? h("span", { class: "phase" }, phase) : null,
  );
  fill(
    root.querySelector("#waiting"),
    view.winner
      ? t("{house} has won.", { house: houseName(view.winner) })
      : waiting.length
        ? [
            h("span", { class: "muted" }, t("Deciding:")),
            waiting.map((house) => houseChip(house, { name: waiting.length < 3, you: view.house })),
          ]
        : "",
  );
  const you = root.querySelector("#you");
  if (you && view.house)
    fill(you, h("span", { class: "muted" }, t("You are")), houseChip(view.house));
}
