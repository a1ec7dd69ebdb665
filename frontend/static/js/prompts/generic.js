// Generic renderers: any "pick one option", "pick an area" or "pick units" question, whatever
// rule or card asks it (Westeros and wildling cards, card abilities, plugins).
import { anyCardName, areaName, houseCard, isHouseCard } from "../content.js";
import { h } from "../dom.js";
import { listed, t, tc, tn } from "../i18n.js";
import { optionText, reasonText } from "../log.js";
import { promptText } from "../prompt-titles.js";
import { cardTile } from "../panels.js";
import { button, choiceButton, commitButton, header, note, unitLabel } from "./common.js";

/** choose_option (and plugin prompts built on it): one of `data.options`, explained by
 * `data.reason`; `extra` (a node) replaces the "Your card" note. */
export function chooseOption(ctx, title, text, extra = null) {
  const { data, draft, view } = ctx;
  draft.option ??= null;
  function paint() {
    const cards = data.options.filter((o) => isHouseCard(o));
    ctx.paint(
      header(
        title || reasonText(data.reason) || t("Make a choice"),
        text || (isHouseCard(data.reason) ? tc(houseCard(data.reason).text) : null),
        title && !isHouseCard(data.reason) ? data.reason : null,
      ),
      extra || (data.card ? note(t("Your card: {card}", { card: anyCardName(data.card) })) : null),
      view.wildling_top && data.options.includes("keep_on_top")
        ? note(t("The top wildling card is {card}.", { card: anyCardName(view.wildling_top) }))
        : null,
      h(
        "div",
        { class: cards.length ? "card-choices" : "choices", role: "radiogroup" },
        data.options.map((option) =>
          isHouseCard(option)
            ? h(
                "button",
                {
                  type: "button",
                  class: `card-choice${draft.option === option ? " is-selected" : ""}`,
                  role: "radio",
                  "aria-checked": draft.option === option ? "true" : "false",
                  "data-testid": `option-${option}`,
                  onclick: () => {
                    draft.option = option;
                    paint();
                  },
                },
                cardTile(option),
              )
            : choiceButton(
                optionText(option, data),
                draft.option === option,
                () => {
                  draft.option = option;
                  paint();
                },
                {
                  role: "radio",
                  "aria-checked": draft.option === option ? "true" : "false",
                  "data-testid": `option-${option}`,
                },
              ),
        ),
      ),
      h(
        "div",
        { class: "prompt-actions" },
        commitButton(t("Confirm"), () => ctx.act({ kind: "choose", option: draft.option }), {
          disabled: draft.option === null,
        }),
      ),
    );
    const areas = data.options.filter((o) => ctx.map.areas.has(o));
    if (areas.length) {
      ctx.map.setChoice(
        new Set(areas),
        (id) => {
          draft.option = id;
          paint();
        },
        draft.option ? [draft.option] : [],
      );
    } else ctx.map.clearChoice();
    ctx.overlay({});
  }
  paint();
}

/** choose_area, muster_area, destroy_area: one of `data.areas` (or none when optional). */
export function chooseArea(ctx, title, text) {
  const { data, draft } = ctx;
  const pick = (id) => {
    draft.area = id;
    paint();
  };
  function paint() {
    ctx.paint(
      header(
        title || t("Choose an area"),
        text || t("Click a highlighted area on the map, or pick it here."),
        data.reason,
      ),
      h(
        "div",
        { class: "choices" },
        data.areas.map((id) =>
          choiceButton(areaName(id), draft.area === id, () => pick(id), {
            "data-testid": `area-choice-${id}`,
          }),
        ),
        data.optional
          ? choiceButton(t("None"), draft.area === null, () => pick(null), {
              "data-testid": "area-choice-none",
            })
          : null,
      ),
      h(
        "div",
        { class: "prompt-actions" },
        commitButton(t("Confirm"), () => ctx.act({ kind: "select_area", area: draft.area }), {
          disabled: draft.area === undefined,
        }),
      ),
    );
    ctx.map.setChoice(new Set(data.areas), pick, draft.area ? [draft.area] : []);
    ctx.overlay({});
  }
  paint();
}

/** destroy_units, reconcile_supply, upgrade_units, replace_units: pick (area, unit) entries.
 * Exactly `data.count`, or between `data.min` and `data.max`. */
export function selectUnits(ctx, title, text) {
  const { data, draft } = ctx;
  draft.picked ??= [];
  const min = data.count ?? data.min ?? 0;
  const max = data.count ?? data.max ?? data.units.length;
  const toggle = (i) => {
    if (draft.picked.includes(i)) draft.picked = draft.picked.filter((x) => x !== i);
    else if (draft.picked.length < max) draft.picked = [...draft.picked, i];
    else if (max === 1) draft.picked = [i];
    paint();
  };
  function paint() {
    const ok = draft.picked.length >= min && draft.picked.length <= max;
    ctx.paint(
      header(title, text, data.reason),
      data.allowed
        ? note(
            t("Your armies: {armies}; allowed: {allowed}", {
              armies: listed(data.armies || []) || "—",
              allowed: listed(data.allowed),
            }),
          )
        : null,
      h(
        "p",
        { class: "prompt-stat" },
        min === max
          ? tn("Choose {n} unit.", "Choose {n} units.", min)
          : t("Choose {min} to {max} units.", { min, max }),
      ),
      h(
        "div",
        { class: "unit-picks" },
        data.units.map(([area, type], i) =>
          h(
            "button",
            {
              type: "button",
              class: `unit-pick${draft.picked.includes(i) ? " is-selected" : ""}`,
              "aria-pressed": draft.picked.includes(i) ? "true" : "false",
              "data-testid": `unit-${area}-${type}-${i}`,
              onclick: () => toggle(i),
            },
            unitLabel(ctx.house, type, area),
          ),
        ),
      ),
      h(
        "div",
        { class: "prompt-actions" },
        commitButton(
          t("Confirm"),
          () => ctx.act({ kind: "select_units", units: draft.picked.map((i) => data.units[i]) }),
          { disabled: !ok },
        ),
      ),
    );
    const areas = new Set(data.units.map(([area]) => area));
    ctx.map.setChoice(
      areas,
      (id) => {
        const next = data.units.findIndex(([area], i) => area === id && !draft.picked.includes(i));
        if (next >= 0) toggle(next);
      },
      draft.picked.map((i) => data.units[i][0]),
    );
    ctx.overlay({});
  }
  paint();
}

/** A prompt this page has no screen for: offer what its data allows, in the plain words a
 * plugin registered for its kind (prompt-titles.js), else show it plainly. */
export function fallback(ctx) {
  const { data, prompt } = ctx;
  const actions = prompt.actions || [];
  const { title, text } = promptText(prompt);
  if (actions.includes("choose") && Array.isArray(data.options))
    return chooseOption(ctx, title, text);
  if (actions.includes("select_area") && Array.isArray(data.areas))
    return chooseArea(ctx, title, text);
  if (actions.includes("select_units") && Array.isArray(data.units))
    return selectUnits(ctx, title, text);
  ctx.paint(
    header(title, t("This decision comes from a plugin this board does not know how to show.")),
    h("pre", { class: "prompt-raw" }, JSON.stringify(data, null, 2)),
    button(t("Reload the page"), () => location.reload()),
  );
  ctx.map.clearChoice();
  ctx.overlay({});
  return undefined;
}
