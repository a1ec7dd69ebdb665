// Mother of Dragons in the browser (RULES.md 11): the dragon and Iron Bank icons, the names of
// the sea order tokens, the Iron Bank panel (its three loan slots, each house's loans) and the
// loan purchase and default decisions in plain words. Every fact comes from the view (`ext`:
// iron_bank_slots, iron_bank_costs, iron_bank_loans) or the prompt data; the page's content
// names the loans (its reference cards). Imported by the board in Mother of Dragons games.
import { areaName, hasArea, houseName, rawContent, trackName, unitName } from "/static/js/content.js";
import { fill, h, s } from "/static/js/dom.js";
import { t, tc, tn } from "/static/js/i18n.js";
import { houseChip } from "/static/js/panels.js";
import { button, choiceButton, commitButton, header, note } from "/static/js/prompts/common.js";
import { chooseOption, selectUnits } from "/static/js/prompts/generic.js";
import { registerPlugin } from "/static/js/registry.js";

const SYMBOLS = [
  [
    "unit-dragon",
    [
      s("path", {
        fill: "var(--fill,#ccc)",
        stroke: "var(--stroke,#222)",
        "stroke-width": "1.2",
        "stroke-linejoin": "round",
        d: "M-9.5-1.5L-4-7L-2.5-2.5L0-9L2.5-2.5L4-7L9.5-1.5L5 .5L3.2 .2L4.5 4.5L2 3L.6 8.5L-.6 8.5L-2 3L-4.5 4.5L-3.2 .2L-5 .5Z",
      }),
      s("circle", { cx: "0", cy: "-1", r: "0.9", fill: "var(--stroke,#222)" }),
    ],
  ],
  [
    "order-iron_bank",
    [
      s("path", {
        fill: "var(--ink,#2b2118)",
        d: "M-7.5-3L0-8L7.5-3ZM-7-2H7V-.6H-7ZM-6 .4H-3.6V5H-6ZM-1.2 .4H1.2V5H-1.2ZM3.6 .4H6V5H3.6ZM-7.5 6H7.5V7.6H-7.5Z",
      }),
    ],
  ],
];

/** Add the dragon and Iron Bank symbols to the page once (the map and icons `use` them). */
function addSymbols() {
  if (document.getElementById("mod-symbols")) return;
  const sprite = s("svg", {
    id: "mod-symbols",
    "aria-hidden": "true",
    width: 0,
    height: 0,
    style: { position: "absolute" },
  });
  for (const [id, parts] of SYMBOLS) sprite.append(s("symbol", { id, viewBox: "-10 -10 20 20" }, ...parts));
  document.body.append(sprite);
}

/** The translated name of a loan (the content's reference card), or its id. */
function loanName(id) {
  const card = rawContent().reference_cards?.[id];
  return card ? tc(card.name) : id;
}

/** The translated text of a loan. */
function loanText(id) {
  const card = rawContent().reference_cards?.[id];
  return card?.text ? tc(card.text) : "";
}

/** The Iron Bank panel: the loans on offer with their costs and the loans each house holds;
 * while the seat buys a loan (iron_bank_loan) the affordable ones have a Buy button. */
function ironBankPanel(root, view, ctx) {
  const ext = view.ext || {};
  if (!ext.iron_bank_slots) {
    root.hidden = true;
    return;
  }
  root.hidden = false;
  const buying = ctx && ctx.prompt.kind === "iron_bank_loan" ? ctx.data.costs || {} : null;
  const costs = ext.iron_bank_costs || [];
  const slots = ext.iron_bank_slots.map((loan, i) =>
    h(
      "li",
      { class: "iron-bank-slot", "data-testid": `loan-slot-${i}`, "data-loan": loan || "" },
      h(
        "span",
        { class: "iron-bank-cost" },
        costs[i] != null ? t("{n} Power", { n: costs[i] }) : "",
      ),
      " ",
      loan
        ? h(
            "span",
            { class: "iron-bank-loan" },
            h("strong", {}, loanName(loan)),
            h("span", { class: "muted" }, ` — ${loanText(loan)}`),
          )
        : h("span", { class: "muted" }, t("empty slot")),
      buying && loan && buying[loan] != null
        ? button(
            t("Buy for {n} Power", { n: buying[loan] }),
            () => ctx.act({ kind: "choose", option: loan }),
            { class: "button button-small", "data-testid": `buy-${loan}` },
          )
        : null,
      buying && loan && buying[loan] != null ? shortNote(ctx.data, loan) : null,
    ),
  );
  const byHouse = new Map();
  for (const [house, loan] of ext.iron_bank_loans || []) {
    if (!byHouse.has(house)) byHouse.set(house, []);
    byHouse.get(house).push(loan);
  }
  fill(
    root,
    h("h2", { class: "panel-title" }, t("Iron Bank")),
    h("ol", { class: "iron-bank-slots" }, slots),
    h("h3", { class: "panel-sub" }, t("Loans held")),
    byHouse.size
      ? h(
          "ul",
          { class: "iron-bank-held", "data-testid": "loans-held" },
          [...byHouse].map(([house, held]) =>
            h(
              "li",
              { "data-house": house },
              houseChip(house),
              " ",
              held.map(loanName).join(", "),
              " · ",
              t("interest {n} Power each round", { n: held.length }),
            ),
          ),
        )
      : h("p", { class: "muted", "data-testid": "loans-held" }, t("No house holds a loan.")),
  );
}

/** The units of `loan` the buyer's pool cannot give (the prompt's `missing_units`, e.g.
 * Targaryen has no siege engines, 11.4.3), counted by type in words, or "". */
function missingWords(data, loan) {
  const missing = data.missing_units?.[loan] || [];
  const counts = new Map();
  for (const unit of missing) counts.set(unit, (counts.get(unit) || 0) + 1);
  return [...counts].map(([unit, n]) => `${n} ${unitName(unit, n)}`).join(t(", "));
}

/** A warning that `loan` gives less than its card says (11.9.6: units come from the pool). */
function shortNote(data, loan) {
  const missing = missingWords(data, loan);
  if (!missing) return null;
  const total = (data.missing_units[loan] || []).length;
  return h(
    "p",
    { class: "prompt-note note-warning", "data-testid": `loan-short-${loan}` },
    tn(
      "Your pool cannot give {units}: you would get {n} unit fewer than the card says and still pay 1 Power token of interest every round.",
      "Your pool cannot give {units}: you would get {n} units fewer than the card says and still pay 1 Power token of interest every round.",
      total,
      { units: missing },
    ),
  );
}

/** iron_bank_loan: buy one affordable loan from the panel's list, or take none (11.9.4). */
function buyLoan(ctx) {
  const costs = ctx.data.costs || {};
  ctx.paint(
    header(
      t("The Iron Bank"),
      t(
        "Your Iron Bank order lets you buy one loan. Pay its cost in Power tokens; it acts at once. From the next round you pay 1 Power token of interest per loan, or lose units.",
      ),
    ),
    h(
      "ul",
      { class: "choice-list" },
      Object.entries(costs).map(([loan, cost]) =>
        h(
          "li",
          {},
          button(
            t("Buy {loan} for {n} Power", { loan: loanName(loan), n: cost }),
            () => ctx.act({ kind: "choose", option: loan }),
            { "data-testid": `option-${loan}` },
          ),
          h("p", { class: "muted" }, loanText(loan)),
          shortNote(ctx.data, loan),
        ),
      ),
    ),
    note(t("The loans on offer are also in the Iron Bank panel.")),
    h(
      "div",
      { class: "prompt-actions" },
      button(t("Take no loan"), () => ctx.act({ kind: "choose", option: "pass" }), {
        "data-testid": "option-pass",
      }),
    ),
  );
  ctx.map.clearChoice();
  ctx.overlay({});
}

/** loan_unit: the area for the unit a loan brings, naming the unit and the loan (11.9.6). */
function loanUnit(ctx) {
  const unit = unitName(ctx.data.unit);
  chooseOption(
    ctx,
    t("Place the {unit} of your loan", { unit }),
    t("{loan} brings a {unit} from your pool: choose an area you control for it, or pass.", {
      loan: loanName(ctx.data.reason),
      unit,
    }),
  );
}

/** faceless_men: the area of the knight (then of the footman) the Faceless Men kill, each
 * option naming whose unit dies; an area of the buyer's own is marked and warned about. */
function facelessMen(ctx) {
  const { data, draft } = ctx;
  draft.option ??= null;
  const unit = unitName(data.unit);
  const victims = data.victims || {};
  const pick = (area) => {
    draft.option = area;
    paint();
  };
  function label(area) {
    const house = victims[area];
    return house === ctx.house
      ? t("{area}: your own {unit}", { area: areaName(area), unit })
      : t("{area}: {house}'s {unit}", { area: areaName(area), house: houseName(house), unit });
  }
  function paint() {
    ctx.paint(
      header(
        data.unit === "knight"
          ? t("The Faceless Men: choose the knight to kill")
          : t("The Faceless Men: choose the footman to kill"),
        data.unit === "knight"
          ? t("First a knight dies, then a footman in another area; they may belong to any house.")
          : t("Now a footman dies, in an area other than the knight's; it may belong to any house."),
      ),
      h(
        "div",
        { class: "choices", role: "radiogroup" },
        data.options.map((area) =>
          choiceButton(label(area), draft.option === area, () => pick(area), {
            role: "radio",
            "aria-checked": draft.option === area ? "true" : "false",
            "data-testid": `option-${area}`,
            "data-own": victims[area] === ctx.house ? "1" : null,
          }),
        ),
      ),
      draft.option && victims[draft.option] === ctx.house
        ? note(t("This kills one of your own units."), "warning")
        : null,
      h(
        "div",
        { class: "prompt-actions" },
        commitButton(
          draft.option ? t("Kill the {unit} in {area}", { unit, area: areaName(draft.option) }) : t("Confirm"),
          () => ctx.act({ kind: "choose", option: draft.option }),
          { disabled: draft.option === null },
        ),
      ),
    );
    ctx.map.setChoice(new Set(data.options), pick, draft.option ? [draft.option] : []);
    ctx.overlay({});
  }
  paint();
}

/** iron_bank_default: the debtor missed interest; the chooser destroys that many units. */
function defaultWords(ctx) {
  const debtor = ctx.data.debtor;
  return ctx.house === debtor
    ? t("You could not pay the Iron Bank's interest: choose {n} of your units to destroy.", {
        n: ctx.data.count,
      })
    : t(
        "{house} could not pay the Iron Bank's interest. As holder of the Valyrian Steel Blade, choose {n} of their units to destroy.",
        { house: houseName(debtor), n: ctx.data.count },
      );
}

/** The loyalty panel (11.6): the loyalty tokens on the board, area by area, and how many
 * Targaryen has collected (the view's `ext`: loyalty_tokens, loyalty_collected). */
function loyaltyPanel(root, view) {
  const ext = view.ext || {};
  if (!ext.loyalty_tokens) {
    root.hidden = true;
    return;
  }
  root.hidden = false;
  fill(
    root,
    h("h2", { class: "panel-title" }, t("Loyalty tokens")),
    ext.loyalty_tokens.length
      ? h(
          "ul",
          { class: "loyalty-tokens", "data-testid": "loyalty-tokens" },
          ext.loyalty_tokens.map(([area, n]) =>
            h(
              "li",
              { "data-area": area, "data-count": n },
              t("{area}: {n}", { area: areaName(area), n }),
            ),
          ),
        )
      : h(
          "p",
          { class: "muted", "data-testid": "loyalty-tokens" },
          t("No loyalty token is on the board."),
        ),
    h(
      "p",
      { "data-testid": "loyalty-collected", "data-count": ext.loyalty_collected || 0 },
      houseChip("targaryen"),
      " ",
      tn(
        "has collected {n} loyalty token.",
        "has collected {n} loyalty tokens.",
        ext.loyalty_collected || 0,
      ),
    ),
  );
}

/** Options of deck IV decisions built at run time (11.11.2): a house's token move "from>to";
 * Targaryen's answer to another house's move (`cancel` or `allow`, the prompt's `data.move`);
 * Fire Made Flesh's dragon strength token `dragon_token_<round>`; null for any other option. */
function loyaltyMoveWords(option, data) {
  const token = /^dragon_token_(\d+)$/.exec(String(option));
  if (token) return t("The dragon strength token of round {round}", { round: token[1] });
  const words = moveWords(option === "cancel" || option === "allow" ? data?.move : option);
  if (!words) return null;
  if (option === "cancel") return t("Cancel the move from {source} to {target}", words);
  if (option === "allow") return t("Let the token move from {source} to {target}", words);
  return t("Move a loyalty token from {source} to {target}", words);
}

/** {source, target} area names of a token move "from>to", or null. */
function moveWords(move) {
  const [source, target, ...rest] = String(move ?? "").split(">");
  if (!target || rest.length || !hasArea(source) || !hasArea(target)) return null;
  return { source: areaName(source), target: areaName(target) };
}

/** loyalty_cancel: another house moves a loyalty token; Targaryen may pay to cancel it. */
function cancelWords(ctx) {
  const words = moveWords(ctx.data.move) || {};
  return tn(
    "{house} moves a loyalty token from {source} to {target}. You may discard {n} Power token to cancel the move.",
    "{house} moves a loyalty token from {source} to {target}. You may discard {n} Power tokens to cancel the move.",
    ctx.data.cost,
    { house: houseName(ctx.data.mover), ...words },
  );
}

/** dragon_token: which token still on the round track Fire Made Flesh moves into the box. */
function tokenWords() {
  return t(
    "Choose the dragon strength token that moves from the round track into the box now: your dragons are 1 stronger until the round it stood on.",
  );
}

/** distribute_bid (11.6.6): Targaryen gives its bid's Power one at a time to other houses'
 * revealed bids (`data.bids`, as they stand, with what it gave so far), or stops. */
function distributeBid(ctx) {
  const { data } = ctx;
  const text = t(
    "The bids for {track} are revealed. Give the Power of your bid to other houses' bids, one at a time, or stop: {n} Power left to give.",
    { track: trackName(data.track), n: data.left },
  );
  const bids = h(
    "ul",
    { class: "revealed-bids", "data-testid": "revealed-bids", "aria-label": t("Revealed bids") },
    (data.bids || []).map(([house, n]) =>
      h(
        "li",
        { "data-testid": `revealed-bid-${house}`, "data-bid": n },
        houseChip(house),
        " ",
        t("bids {n} Power", { n }),
      ),
    ),
  );
  chooseOption(ctx, t("Targaryen distributes its bid"), text, bids);
}

/** Loyalty tokens on the map (11.6.1): a badge with the count on every area holding some
 * (the map model's `ext.loyalty_tokens`). */
/** Where an area's loyalty token goes (a translate and scale): beside the area's name, clear
 * of every name, piece and edge of the map (`BoardMap.freeSpot`); else right of the name. */
function loyaltySpot(map, where) {
  const spot = map.freeSpot(where, 20);
  if (spot) return `translate(${spot.x} ${spot.y}) scale(${spot.scale})`;
  const box = where.box;
  const [x, y] = box ? [box.x1 + 13, (box.y0 + box.y1) / 2] : [where.x + 14, where.y - 24];
  return `translate(${x} ${y})`;
}

function drawLoyalty(map, model) {
  for (const [id, n] of model.ext?.loyalty_tokens || []) {
    const where = map.areas.get(id);
    if (!where) continue;
    const words = tn("{area}: {n} loyalty token", "{area}: {n} loyalty tokens", n, {
      area: areaName(id),
    });
    map.layer.append(
      s(
        "g",
        {
          class: "w-loyalty",
          "data-testid": `loyalty-${id}`,
          "data-count": n,
          transform: loyaltySpot(map, where),
        },
        s("title", {}, words),
        s("circle", { r: 10, fill: "#f4e9c8", stroke: "#4b2466", "stroke-width": 2.5 }),
        s(
          "text",
          { "text-anchor": "middle", dy: 4, "font-size": 12, "font-weight": 700, fill: "#4b2466" },
          String(n),
        ),
      ),
    );
  }
}

addSymbols();

registerPlugin("westeros_mother_of_dragons", {
  prompts: {
    iron_bank_loan: buyLoan,
    loan_unit: loanUnit,
    faceless_men: facelessMen,
    iron_bank_default: (ctx) => selectUnits(ctx, t("The Iron Bank collects"), defaultWords(ctx)),
    loyalty_cancel: (ctx) => chooseOption(ctx, t("Cancel the loyalty token move?"), cancelWords(ctx)),
    dragon_token: (ctx) => chooseOption(ctx, t("Fire Made Flesh: choose a dragon strength token"), tokenWords()),
    distribute_bid: distributeBid,
  },
  phases: {
    iron_bank_loan: () => t("Action: the Iron Bank"),
    iron_bank_default: () => t("The Iron Bank collects"),
    loan_unit: () => t("Action: the Iron Bank"),
    faceless_men: () => t("Action: the Iron Bank"),
    spymaster: () => t("Action: the Iron Bank"),
    claim_vassals: () => t("Planning: claim vassals"),
    loyalty_cancel: () => t("Westeros phase"),
    dragon_token: () => t("Westeros phase"),
    distribute_bid: () => t("Westeros phase"),
  },
  titles: {
    iron_bank_loan: () => ({
      phase: t("Action: the Iron Bank"),
      title: t("The Iron Bank"),
      text: t("Buy one loan from the Iron Bank, or take none."),
    }),
    iron_bank_default: () => ({
      phase: t("The Iron Bank collects"),
      title: t("The Iron Bank collects"),
      text: t("A house could not pay its interest: units are destroyed."),
    }),
    loan_unit: () => ({
      phase: t("Action: the Iron Bank"),
      title: t("Place a unit from your loan"),
      text: t("Your loan brings a unit from your pool: choose an area you control for it."),
    }),
    faceless_men: () => ({
      phase: t("Action: the Iron Bank"),
      title: t("The Faceless Men"),
      text: t("Choose the area of the unit the Faceless Men kill; it may belong to any house."),
    }),
    spymaster: () => ({
      phase: t("Action: the Iron Bank"),
      title: t("Spymaster: arrange the Westeros cards"),
      text: t("You see the top cards of a Westeros deck: choose which go to the bottom and in what order."),
    }),
    claim_vassals: () => ({
      phase: t("Planning phase"),
      title: t("Claim vassals"),
      text: t("Choose the vassal houses you command this round: you place their orders and decide for them."),
    }),
    loyalty_cancel: () => ({
      phase: t("Westeros phase"),
      title: t("Cancel the loyalty token move?"),
      text: t("Another house moves a loyalty token: you may discard Power tokens to cancel the move."),
    }),
    dragon_token: () => ({
      phase: t("Westeros phase"),
      title: t("Fire Made Flesh: choose a dragon strength token"),
      text: tokenWords(),
    }),
    distribute_bid: () => ({
      phase: t("Westeros phase"),
      title: t("Targaryen distributes its bid"),
      text: t("Give the Power of your bid, one at a time, to other houses' bids on this track, or stop."),
    }),
  },
  reasons: {
    "targaryen-distributes-its-bid": {
      name: () => t("Targaryen distributes its bid"),
      phase: () => t("Westeros phase"),
      asks: () => ({
        title: t("Targaryen distributes its bid"),
        text: t("Give the Power of your bid, one at a time, to other houses' bids on this track, or stop."),
      }),
    },
    "iron-bank-interest": {
      name: () => t("Iron Bank interest"),
      phase: () => t("The Iron Bank collects"),
      asks: () => ({
        title: t("The Iron Bank collects"),
        text: t("A house could not pay its interest: choose which of its units are destroyed."),
      }),
    },
  },
  orderTypes: { iron_bank: () => t("Iron Bank") },
  tokens: {
    "sea-march-1": () => t("Sea March −1"),
    "sea-support+0": () => t("Sea Support +0"),
  },
  optionWords: loyaltyMoveWords,
  decorate: drawLoyalty,
  panels: { iron_bank: ironBankPanel, loyalty: loyaltyPanel },
});
