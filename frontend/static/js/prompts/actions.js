// Resolving Raid (5.2) and Consolidate Power (5.6) orders, and mustering (3.5).
import { areaName, orderLabel, orderToken, unitName } from "../content.js";
import { h } from "../dom.js";
import { t, tn } from "../i18n.js";
import { orderIcon, unitIcon } from "../map.js";
import { nothingToMuster } from "../prompt-titles.js";
import { button, choiceButton, commitButton, header, note } from "./common.js";
import { promiseWarning, sendKeepingPromises } from "./promises.js";

/** raid: pick a Raid order, then the adjacent order it removes (or none). */
export function raid(ctx) {
  const { data, draft, view } = ctx;
  const raids = data.raids || {};
  const areas = Object.keys(raids);
  draft.area ??= areas.length === 1 ? areas[0] : null;
  const send = (target) => ctx.act({ kind: "resolve_raid", area: draft.area, target });
  const pick = (id) => {
    if (raids[id]) {
      draft.area = id;
      draft.target = undefined;
    } else if (draft.area && raids[draft.area].targets.includes(id)) {
      draft.target = id;
    }
    paint();
  };
  function paint() {
    const parts = [
      header(
        t("Raid"),
        t(
          "Choose a Raid order and the adjacent enemy order it removes. Raiding Consolidate Power takes one power token from its owner.",
        ),
      ),
    ];
    parts.push(
      h(
        "div",
        { class: "choices" },
        areas.map((id) =>
          choiceButton(
            [orderIcon(raids[id].token, ctx.house), areaName(id)],
            draft.area === id,
            () => pick(id),
            { "data-testid": `raid-${id}` },
          ),
        ),
      ),
    );
    if (draft.area) {
      const targets = raids[draft.area].targets;
      parts.push(
        h(
          "p",
          { class: "prompt-sub" },
          targets.length ? t("Order to remove:") : t("No order can be raided from here."),
        ),
        h(
          "div",
          { class: "choices" },
          targets.map((id) => {
            const order = view.orders[id];
            return choiceButton(
              [
                order ? orderIcon(order[1], order[0]) : null,
                areaName(id),
                order ? ` · ${orderLabel(order[1])}` : "",
              ],
              draft.target === id,
              () => pick(id),
              { "data-testid": `raid-target-${id}` },
            );
          }),
        ),
      );
    }
    // 5.2.2: a Raid order may remove nothing; one click resolves it that way (the main
    // button when there is nothing to raid).
    // A raid on an order of a house this seat promised peace to is flagged first (36.5).
    const targetless = draft.area && !raids[draft.area].targets.length;
    const noTarget = targetless ? commitButton : button;
    const warning = promiseWarning("raid");
    const act = { kind: "resolve_raid", area: draft.area, target: draft.target };
    const commit = targetless
      ? null
      : commitButton(
          t("Raid"),
          () => sendKeepingPromises(ctx, "raid", [draft.target], act, warning, commit),
          { disabled: !draft.target },
        );
    parts.push(
      warning,
      h(
        "div",
        { class: "prompt-actions" },
        commit,
        draft.area
          ? noTarget(t("No target: remove my Raid order"), () => send(null), {
              "data-testid": "raid-no-target",
            })
          : null,
      ),
    );
    ctx.paint(...parts);
    const choosable = new Map(areas.map((id) => [id, "origin"]));
    if (draft.area) for (const id of raids[draft.area].targets) choosable.set(id, "target");
    ctx.map.setChoice(choosable, pick, [draft.area, draft.target].filter(Boolean));
    ctx.overlay({});
  }
  paint();
}

/** consolidate_power: gain power, or muster with a starred order in a castle area. */
export function consolidate(ctx) {
  const { data, draft } = ctx;
  const orders = data.orders || {};
  const areas = Object.keys(orders);
  draft.area ??= areas.length === 1 ? areas[0] : null;
  draft.muster ??= draft.area && !orders[draft.area].may_muster ? false : null;
  const choose = (id) => {
    draft.area = id;
    draft.muster = orders[id].may_muster ? null : false;
    paint();
  };
  function paint() {
    const parts = [
      header(t("Consolidate Power"), t("Choose one of your Consolidate Power orders to resolve.")),
    ];
    parts.push(
      h(
        "div",
        { class: "choices" },
        areas.map((id) =>
          choiceButton(
            [
              orderIcon(orders[id].token, ctx.house),
              orderToken(orders[id].token).type === "consolidate_power"
                ? t("{area}: +{n} power", { area: areaName(id), n: orders[id].yield })
                : t("{area}: {order}", { area: areaName(id), order: orderLabel(orders[id].token) }),
            ],
            draft.area === id,
            () => choose(id),
            {
              "data-testid": `consolidate-area-${id}`,
            },
          ),
        ),
      ),
    );
    if (draft.area && orders[draft.area].may_muster) {
      parts.push(
        h(
          "div",
          { class: "choices" },
          choiceButton(
            t("Gain {n} power", { n: orders[draft.area].yield }),
            draft.muster === false,
            () => {
              draft.muster = false;
              paint();
            },
            { "data-testid": "consolidate-gain" },
          ),
          choiceButton(
            t("Muster units instead"),
            draft.muster === true,
            () => {
              draft.muster = true;
              paint();
            },
            { "data-testid": "consolidate-muster" },
          ),
        ),
      );
    }
    const ready = draft.area && draft.muster !== null;
    parts.push(
      h(
        "div",
        { class: "prompt-actions" },
        commitButton(
          t("Resolve"),
          () =>
            ctx.act({
              kind: "resolve_consolidate",
              area: draft.area,
              muster: Boolean(draft.muster),
            }),
          { disabled: !ready },
        ),
      ),
    );
    ctx.paint(...parts);
    ctx.map.setChoice(new Set(areas), choose, draft.area ? [draft.area] : []);
    ctx.overlay({});
  }
  paint();
}

/** muster: one recruit or upgrade at a time until the points are spent or you are done. */
export function muster(ctx) {
  const { data, draft } = ctx;
  draft.unit ??= null;
  const recruits = data.recruits || [];
  const others = data.other_areas || [];
  const send = (unit, area) => ctx.act({ kind: "muster_unit", unit, area, replace: null });
  // 3.5.1: the areas muster in any order; the engine queues them and lets the house switch.
  const switchTo = (area) => ctx.act({ kind: "select_area", area });
  const pickArea = (id) => {
    const recruit = recruits.find((r) => r.unit === draft.unit);
    if (recruit && recruit.areas.includes(id)) send(recruit.unit, id);
    else if (others.includes(id)) switchTo(id);
  };
  function paint() {
    const parts = [
      header(t("Muster in {area}", { area: areaName(data.area) }), [
        tn("{n} mustering point left.", "{n} mustering points left.", data.points),
        " ",
        t("Each unit and upgrade shows its cost in points."),
      ]),
      h("p", { class: "prompt-sub" }, t("Recruit:")),
      recruits.length ? null : note(nothingToMuster()),
      h(
        "div",
        { class: "choices" },
        recruits.map((r) =>
          choiceButton(
            [
              unitIcon(ctx.house, r.unit),
              t("{unit} ({cost})", { unit: unitName(r.unit), cost: r.cost }),
            ],
            draft.unit === r.unit,
            () => {
              if (r.areas.length === 1) send(r.unit, r.areas[0]);
              else {
                draft.unit = r.unit;
                paint();
              }
            },
            { "data-testid": `muster-${r.unit}` },
          ),
        ),
      ),
    ];
    if (draft.unit) {
      const recruit = recruits.find((r) => r.unit === draft.unit);
      parts.push(
        note(t("Where does the {unit} go?", { unit: unitName(draft.unit) })),
        h(
          "div",
          { class: "choices" },
          recruit.areas.map((id) =>
            button(areaName(id), () => send(recruit.unit, id), { class: "choice" }),
          ),
        ),
      );
    }
    if ((data.upgrades || []).length) {
      parts.push(
        h("p", { class: "prompt-sub" }, t("Upgrade:")),
        h(
          "div",
          { class: "choices" },
          data.upgrades.map((u) =>
            button(
              [
                unitIcon(ctx.house, u.from),
                "→",
                unitIcon(ctx.house, u.to),
                t("{from} to {to} ({cost})", {
                  from: unitName(u.from),
                  to: unitName(u.to),
                  cost: u.cost,
                }),
              ],
              () => ctx.act({ kind: "muster_unit", unit: u.to, area: data.area, replace: u.from }),
              { class: "choice" },
            ),
          ),
        ),
      );
    }
    if (others.length) {
      parts.push(
        h("p", { class: "prompt-sub" }, t("Or muster first in another area:")),
        h(
          "div",
          { class: "choices" },
          others.map((id) =>
            button(areaName(id), () => switchTo(id), {
              class: "choice",
              "data-testid": `muster-switch-${id}`,
            }),
          ),
        ),
      );
    }
    parts.push(
      h(
        "div",
        { class: "prompt-actions" },
        commitButton(t("Done mustering"), () => ctx.act({ kind: "choose", option: "done" })),
      ),
    );
    ctx.paint(...parts);
    const targets = draft.unit ? recruits.find((r) => r.unit === draft.unit).areas : [];
    const choosable = new Map(others.map((id) => [id, "origin"]));
    for (const id of targets) choosable.set(id, "");
    ctx.map.setChoice(choosable, pickArea, [data.area]);
    ctx.overlay({});
  }
  paint();
}
