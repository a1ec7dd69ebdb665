// Combat decisions (RULES 5.4): support declarations, the house card, the Valyrian Steel Blade.
import { areaName, cardName, houseName } from "../content.js";
import { h } from "../dom.js";
import { listed, t } from "../i18n.js";
import { cardTile, houseChip } from "../panels.js";
import { choiceButton, commitButton, header, hintBox, note, showHint } from "./common.js";

function combatLine(view) {
  const combat = view.combat;
  if (!combat) return null;
  return h(
    "p",
    { class: "prompt-sub combat-line" },
    houseChip(combat.attacker.house),
    h("span", {}, t("attacks")),
    houseChip(combat.defender.house),
    h("span", {}, t("in {area}", { area: areaName(combat.area) })),
  );
}

/** The refusal of a draft from the hint reply (engine check: rule, code, message). */
export function problemText(problem) {
  if (!problem) return "";
  return problem.rule
    ? t("Not allowed (rules {rule}): {message}", { rule: problem.rule, message: problem.message })
    : t("Not allowed: {message}", { message: problem.message });
}

/** What a combat preview (hint reply) does not count yet: plugin combat steps still to come
 * (Tides of Battle), choices abilities may still ask (assumed passive), other houses' support. */
export function previewNotes(hint) {
  const notes = [];
  const steps = hint.still_to_come || [];
  const named = steps.filter((s) => s.note).map((s) => t(s.note));
  if (named.length) notes.push(...named);
  else if (steps.length) notes.push(t("Further combat steps are still to come and not counted."));
  if (hint.combat === "neutral") {
    for (const other of hint.possible_support || []) {
      notes.push(
        t("{house} may agree to support the attack: +{s}.", {
          house: houseName(other.house),
          s: other.attacker,
        }),
      );
    }
  }
  const choices = new Set();
  for (const row of hint.against || []) {
    for (const choice of row.choices || []) if (choice.reason) choices.add(choice.reason);
  }
  if (choices.size) {
    notes.push(
      t("Counted without the choices still to make: {choices}.", {
        choices: listed([...choices].map((c) => cardName(c) || c)),
      }),
    );
  }
  return notes.map((text) => h("p", { class: "hint-more" }, text));
}

/** The title of the house card screen: the person's own card, or that of a house it decides
 * for (a commanded vassal, `answering_for`). */
function houseCardTitle(ctx) {
  if (ctx.data.reason) return t("Choose the card to play instead");
  if (ctx.seat && ctx.house !== ctx.seat)
    return t("Choose the house card of {house}", { house: houseName(ctx.house) });
  return t("Choose your house card");
}

/** choose_house_card: pick a card (secretly, or openly when a card ability asks). */
export function chooseHouseCard(ctx) {
  const { data, draft, view } = ctx;
  draft.card ??= null;
  const hint = hintBox();
  function paint() {
    ctx.paint(
      header(
        houseCardTitle(ctx),
        data.reason
          ? null
          : t("Both cards are revealed at the same time. Hover a card to read its text."),
        data.reason,
      ),
      combatLine(view),
      hint,
      draft.card ? null : note(t("Choose a card to see the combat strength with it.")),
      h(
        "div",
        { class: "card-choices", role: "radiogroup", "aria-label": t("House cards") },
        data.cards.map((id) =>
          h(
            "button",
            {
              type: "button",
              class: `card-choice${draft.card === id ? " is-selected" : ""}`,
              role: "radio",
              "aria-checked": draft.card === id ? "true" : "false",
              "data-testid": `card-${id}`,
              onclick: () => {
                draft.card = id;
                paint();
              },
            },
            cardTile(id),
          ),
        ),
      ),
      h(
        "div",
        { class: "prompt-actions" },
        commitButton(
          draft.card ? t("Play {card}", { card: cardName(draft.card) }) : t("Play the card"),
          () => ctx.act({ kind: "choose", option: draft.card }),
          {
            disabled: !draft.card,
          },
        ),
      ),
    );
    hint.hidden = true;
    const asked = (draft.hintSeq = (draft.hintSeq || 0) + 1);
    if (draft.card) {
      const action = { kind: "choose", option: draft.card };
      ctx.hint(action).then((reply) => {
        if (asked !== draft.hintSeq) return;
        showHint(hint, reply);
        if (reply?.hint?.legal) hint.append(...previewNotes(reply.hint));
      });
    }
    ctx.map.clearChoice();
    if (view.combat) ctx.map.setSelected([view.combat.area]);
    ctx.overlay({});
  }
  paint();
}

/** A support question: `labels` for each of `data.options`, a `commitLabel` to send the pick;
 * the combat area and the asked house's Support orders are marked on the map. */
function supportScreen(ctx, { title, text, line, labels, commitLabel }) {
  const { data, draft } = ctx;
  draft.option ??= null;
  function paint() {
    ctx.paint(
      header(title, text),
      line,
      h(
        "div",
        { class: "choices" },
        data.options.map((option) =>
          choiceButton(
            labels[option] || option,
            draft.option === option,
            () => {
              draft.option = option;
              paint();
            },
            { "data-testid": `option-${option}` },
          ),
        ),
      ),
      h(
        "div",
        { class: "prompt-actions" },
        commitButton(commitLabel, () => ctx.act({ kind: "choose", option: draft.option }), {
          disabled: !draft.option,
        }),
      ),
    );
    ctx.map.clearChoice();
    ctx.map.setSelected([data.area, ...(data.support_areas || [])]);
    ctx.overlay({});
  }
  paint();
}

/** declare_support: support the attacker, the defender or nobody (5.4.1). */
export function declareSupport(ctx) {
  const { data, view } = ctx;
  supportScreen(ctx, {
    title: t("Declare your support"),
    text: t("Your Support orders in {areas} may help in the combat in {area}.", {
      areas: listed((data.support_areas || []).map(areaName)),
      area: areaName(data.area),
    }),
    line: combatLine(view),
    labels: {
      attacker: t("Support the attacker, {house}", { house: houseName(data.attacker) }),
      defender: t("Support the defender, {house}", { house: houseName(data.defender) }),
      none: t("Support nobody"),
    },
    commitLabel: t("Declare"),
  });
}

/** support_neutral_attack: another house attacks a neutral force next to your Support orders
 * and needs your support to reach its strength (5.5.1). */
export function supportNeutralAttack(ctx) {
  const { data } = ctx;
  supportScreen(ctx, {
    title: t("Support an attack on a neutral force?"),
    text: t(
      "{house} attacks the neutral force ({n}) in {area} and needs more strength. If you support, your Support orders in {areas} add {s}; the march happens only if enough support is given.",
      {
        house: houseName(data.attacker),
        n: data.neutral_force,
        area: areaName(data.area),
        areas: listed((data.support_areas || []).map(areaName)),
        s: data.strength,
      },
    ),
    line: null,
    labels: {
      yes: t("Support {house}'s attack (+{s})", {
        house: houseName(data.attacker),
        s: data.strength,
      }),
      no: t("Do not support"),
    },
    commitLabel: t("Answer"),
  });
}

/** The Valyrian Steel Blade (5.4.6): asked only when +1 changes the victor. */
export function blade(ctx) {
  const { data, draft, view } = ctx;
  draft.option ??= null;
  function paint() {
    const combatData = view.combat?.data || {};
    const strength = combatData.strength || combatData.initial_strength;
    ctx.paint(
      header(
        t("Valyrian Steel Blade"),
        t(
          "Using the Blade adds +1 to your combat strength and changes who wins. It can be used once per round.",
        ),
      ),
      combatLine(view),
      strength
        ? note(
            t("Strength now: attacker {a}, defender {d}", {
              a: strength[0],
              d: strength[1],
            }),
          )
        : null,
      h(
        "div",
        { class: "choices" },
        data.options.map((option) =>
          choiceButton(
            option === "use" ? t("Use the Blade (+1)") : t("Keep the Blade"),
            draft.option === option,
            () => {
              draft.option = option;
              paint();
            },
            { "data-testid": `option-${option}` },
          ),
        ),
      ),
      h(
        "div",
        { class: "prompt-actions" },
        commitButton(t("Confirm"), () => ctx.act({ kind: "choose", option: draft.option }), {
          disabled: !draft.option,
        }),
      ),
    );
    ctx.map.clearChoice();
    if (view.combat) ctx.map.setSelected([view.combat.area]);
    ctx.overlay({});
  }
  paint();
}
