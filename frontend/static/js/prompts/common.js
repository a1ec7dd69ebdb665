// Building blocks shared by the prompt renderers.
import { areaName, cardName, houseName, unitName } from "../content.js";
import { h, icon } from "../dom.js";
import { t, tn } from "../i18n.js";
import { reasonText } from "../log.js";
import { unitIcon } from "../map.js";

/** The heading of a decision, with an optional explanation and the reason (rule or card). */
export function header(title, text, reason) {
  return h(
    "div",
    { class: "prompt-head" },
    h("h2", { class: "prompt-title", id: "prompt-title" }, title),
    text ? h("p", { class: "prompt-text" }, text) : null,
    reason
      ? h(
          "p",
          { class: "prompt-reason" },
          t("Because of: {reason}", { reason: reasonText(reason) }),
        )
      : null,
  );
}

/** The main button that sends the decision. */
export function commitButton(label, onClick, attrs = {}) {
  return h(
    "button",
    {
      type: "button",
      class: "button button-primary prompt-commit",
      "data-testid": "commit",
      "aria-keyshortcuts": "Control+Enter",
      onclick: onClick,
      ...attrs,
    },
    label,
  );
}

/** A secondary button. */
export function button(label, onClick, attrs = {}) {
  return h("button", { type: "button", class: "button", onclick: onClick, ...attrs }, label);
}

/** A toggle button used for one choice among several (aria-pressed shows the pick). */
export function choiceButton(content, selected, onClick, attrs = {}) {
  return h(
    "button",
    {
      type: "button",
      class: `choice${selected ? " is-selected" : ""}`,
      "aria-pressed": selected ? "true" : "false",
      onclick: onClick,
      ...attrs,
    },
    content,
  );
}

/** A line explaining why the commit button is disabled, or a warning. */
export function note(text, kind = "info") {
  return text
    ? h("p", { class: `prompt-note note-${kind}`, role: kind === "error" ? "alert" : null }, text)
    : null;
}

/** A number picker for bids and counts: − / value / + and a slider. */
export function numberPicker(min, max, value, onChange, label) {
  const input = h("input", {
    type: "number",
    class: "number-input",
    min,
    max,
    value,
    "aria-label": label,
    "data-testid": "number",
  });
  const range = h("input", {
    type: "range",
    class: "number-range",
    min,
    max,
    value,
    "aria-label": label,
  });
  const set = (v) => {
    const clamped = Math.max(min, Math.min(max, Number.isFinite(v) ? v : min));
    input.value = String(clamped);
    range.value = String(clamped);
    onChange(clamped);
  };
  input.addEventListener("input", () => set(Number.parseInt(input.value, 10)));
  range.addEventListener("input", () => set(Number.parseInt(range.value, 10)));
  return h(
    "div",
    { class: "number-picker" },
    h(
      "button",
      {
        type: "button",
        class: "button button-small",
        "aria-label": t("less"),
        onclick: () => set(Number(input.value) - 1),
      },
      "−",
    ),
    input,
    h(
      "button",
      {
        type: "button",
        class: "button button-small",
        "aria-label": t("more"),
        onclick: () => set(Number(input.value) + 1),
      },
      "+",
    ),
    range,
  );
}

/** A unit as a labelled chip: icon, type, area. */
export function unitLabel(house, type, area, routed = false) {
  return h(
    "span",
    { class: "unit-label" },
    unitIcon(house, type, routed),
    h("span", {}, unitName(type)),
    area ? h("span", { class: "muted" }, areaName(area)) : null,
  );
}

/** A combat-strength hint box: filled by `showHint`. */
export function hintBox() {
  return h("div", { class: "hint", "data-testid": "hint", "aria-live": "polite" });
}

/** Show the server's hint reply (``hint`` message, server/hints.py) in `box`, or the local
 * `estimate` when the server gives none. */
export function showHint(box, reply, estimate) {
  const hint = reply?.hint;
  let parts = [];
  if (hint?.kind === "march" && hint.combat === "house") parts = marchHint(hint);
  else if (hint?.kind === "march" && hint.combat === "neutral") {
    parts = [
      line(
        hint.enough
          ? t("Your strength {s} against the neutral force's {n}: enough to take {area}.", {
              s: hint.attacker,
              n: hint.neutral_force,
              area: areaName(hint.area),
            })
          : t("Your strength {s} against the neutral force's {n}: not enough.", {
              s: hint.attacker,
              n: hint.neutral_force,
            }),
      ),
    ];
  } else if (hint?.kind === "house_card") parts = cardHint(hint);
  else if (estimate) parts = [line(estimate)];
  parts = parts.filter((part) => part != null); // replaceChildren writes null as "null"
  box.replaceChildren(...parts);
  box.hidden = parts.length === 0;
  box.dataset.ready = parts.length ? "1" : "0";
}

function line(text, cls = "hint-strength") {
  return h("p", { class: cls }, icon("icon-sword"), text);
}

function bladeNote(hint) {
  if (!hint.blade) return null;
  return h(
    "p",
    { class: "hint-more" },
    t("The Valyrian Steel Blade (+1) may still be used by {side}.", {
      side: hint.blade === "attacker" ? t("the attacker") : t("the defender"),
    }),
  );
}

function marchHint(hint) {
  const parts = [
    line(
      t("Before house cards: {a} {as} against {d} {ds}", {
        a: houseName(hint.attacker.house),
        as: hint.attacker.strength,
        d: houseName(hint.defender.house),
        ds: hint.defender.strength,
      }),
    ),
  ];
  for (const other of hint.possible_support || []) {
    parts.push(
      h(
        "p",
        { class: "hint-more" },
        t("{house} may support: +{a} for the attacker or +{d} for the defender.", {
          house: houseName(other.house),
          a: other.attacker,
          d: other.defender,
        }),
      ),
    );
  }
  parts.push(bladeNote(hint));
  return parts;
}

function cardHint(hint) {
  const rows = (hint.against || []).map((row) =>
    h(
      "li",
      { class: row.wins ? "hint-win" : "hint-loss" },
      row.opponent_card
        ? t("against {card}: {s} to {o}", {
            card: cardName(row.opponent_card),
            s: row.strength,
            o: row.opponent_strength,
          })
        : t("{s} to {o}", { s: row.strength, o: row.opponent_strength }),
      " — ",
      row.wins
        ? tn("you win, they lose {n} unit", "you win, they lose {n} units", row.casualties)
        : tn("you lose {n} unit", "you lose {n} units", row.casualties),
    ),
  );
  const wins = (hint.against || []).filter((row) => row.wins).length;
  return [
    line(
      t("Combat strength with {card}: you win against {wins} of {n} possible cards.", {
        card: cardName(hint.card),
        wins,
        n: rows.length,
      }),
    ),
    h("ul", { class: "hint-rows" }, rows),
    bladeNote(hint),
  ];
}
