// Vassals in the browser (RULES.md 11.10): the claim_vassals screen (11.10.3: pick up to the
// prompt's `max` of the offered vassals, or none), the names of the vassal order tokens
// (11.10.4-11.10.5) and the Vassals panel (each claimed vassal and its commander this round,
// from the view's public `ext.vassal_commanders`; the houses panel's seat words say the same).
// Every fact comes from the prompt data or the view; the rules stay in the engine. The board answers a commanded vassal's other questions
// with its own screens (the view's `answering_for`). Imported in games with `mod_vassals`.
import { houseName } from "/static/js/content.js";
import { fill, h } from "/static/js/dom.js";
import { t, tn } from "/static/js/i18n.js";
import { houseChip } from "/static/js/panels.js";
import { choiceButton, commitButton, header, note } from "/static/js/prompts/common.js";
import { registerPlugin } from "/static/js/registry.js";

/** How many units `house` has on the board in `view`. */
function unitCount(view, house) {
  let n = 0;
  for (const units of Object.values(view.units)) n += units.filter((u) => u[0] === house).length;
  return n;
}

/** claim_vassals (11.10.3): toggle the vassals to command this round, then claim them. */
function claimVassals(ctx) {
  const { data, draft, view } = ctx;
  draft.claimed ??= [];
  const toggle = (house) => {
    const at = draft.claimed.indexOf(house);
    if (at >= 0) draft.claimed.splice(at, 1);
    else if (draft.claimed.length < data.max) draft.claimed.push(house);
    paint();
  };
  function paint() {
    const full = draft.claimed.length >= data.max;
    ctx.paint(
      header(
        t("Claim vassals"),
        tn(
          "Choose up to {n} vassal house to command this round: you place its orders after your own and decide for it in combat. The last player in turn order takes every vassal left.",
          "Choose up to {n} vassal houses to command this round: you place their orders after your own and decide for them in combat. The last player in turn order takes every vassal left.",
          data.max,
        ),
      ),
      h(
        "div",
        { class: "choices", "data-testid": "vassal-choices" },
        data.vassals.map((house) => {
          const chosen = draft.claimed.includes(house);
          return choiceButton(
            [houseChip(house), " ", tn("{n} unit", "{n} units", unitCount(view, house))],
            chosen,
            () => toggle(house),
            {
              "data-testid": `claim-${house}`,
              "data-key": `claim-${house}`,
              disabled: !chosen && full,
            },
          );
        }),
      ),
      note(
        t("Chosen: {used} of at most {limit}", { used: draft.claimed.length, limit: data.max }),
      ),
      h(
        "div",
        { class: "prompt-actions" },
        commitButton(
          draft.claimed.length
            ? tn("Claim {n} vassal", "Claim {n} vassals", draft.claimed.length)
            : t("Claim no vassal"),
          () => ctx.act({ kind: "claim_vassals", vassals: [...draft.claimed] }),
        ),
      ),
    );
    ctx.map.clearChoice();
    ctx.overlay({});
  }
  paint();
}

/** The Vassals panel: each claimed vassal and the house commanding it this round (hidden
 * until the first claiming). */
function vassalPanel(root, view) {
  const links = view.ext?.vassal_commanders || [];
  if (!links.length) {
    root.hidden = true;
    return;
  }
  root.hidden = false;
  fill(
    root,
    h("h2", { class: "panel-title" }, t("Vassals")),
    h(
      "ul",
      { class: "vassal-list", "data-testid": "vassal-commanders" },
      links.map(([vassal, commander]) =>
        h(
          "li",
          { "data-house": vassal, "data-commander": commander },
          houseChip(vassal),
          " · ",
          commander === view.house
            ? t("commanded by you")
            : [t("commanded by"), " ", houseChip(commander)],
        ),
      ),
    ),
  );
}

/** The houses panel's seat words for a vassal (a house without a seat): who commands it this
 * round (11.10.3), from the view's public `ext.vassal_commanders`; before the first claiming,
 * that it is a vassal. */
function vassalSeat(house, view) {
  const commander = Object.fromEntries(view.ext?.vassal_commanders || [])[house];
  if (!commander) return t("vassal");
  if (commander === view.house) return t("your vassal");
  return t("vassal of {house}", { house: houseName(commander) });
}

registerPlugin("westeros_mother_of_dragons_vassals", {
  prompts: { claim_vassals: claimVassals },
  tokens: {
    "vassal-raid-support+1": () => t("Raid/Support +1"),
    "vassal-defense+1-muster": () => t("Defense +1/Muster"),
    "vassal-support+1": () => t("Support +1"),
    "vassal-muster": () => t("Muster"),
  },
  panels: { vassals: vassalPanel },
  seatLabel: vassalSeat,
});
