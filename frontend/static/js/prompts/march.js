// Resolving a March order (RULES 5.3, 5.5): choose units, split them between destinations,
// at most one combat, optionally leave a power token. Whether the draft is legal (supply,
// neutral forces, ...) and what combat it starts come from the server's hint reply (the
// engine's own check and preview, docs/protocol.md); no rule is computed here. A march into an
// area that one of this seat's deals of the round forbids is flagged before it is sent, and sent
// only once the person confirms (issue 36 point 5: deals are not enforced; the server tells which
// destinations break a promise, promises.js).
import { areaName, houseName, orderLabel, unitName, unitType } from "../content.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { orderIcon, unitIcon } from "../map.js";
import { button, commitButton, header, hintBox, note, showHint } from "./common.js";
import { previewNotes, problemText } from "./combat.js";
import { promiseWarning, sendKeepingPromises } from "./promises.js";

/** march: one March order at a time. */
export function march(ctx) {
  const { data, draft } = ctx;
  const marches = data.marches || {};
  const origins = Object.keys(marches);
  draft.origin ??= origins.length === 1 ? origins[0] : null;
  draft.groups ??= [];
  draft.selected ??= [];
  draft.leave ??= false;
  const hint = hintBox();

  const reset = () => {
    draft.groups = [];
    draft.selected = [];
    draft.leave = false;
  };
  const pickOrigin = (id) => {
    if (draft.origin !== id) reset();
    draft.origin = id;
    draft.selected = marches[id].units.map((_, i) => i).filter((i) => !assigned().has(i));
    paint();
  };
  const assigned = () => new Set(draft.groups.flatMap((g) => g.indices));
  const entryFor = (to) => {
    const opts = marches[draft.origin];
    const lists = [...Object.values(opts.destinations), ...Object.values(opts.group_reach || {})];
    for (const entries of lists) {
      const found = entries.find((e) => e.area === to);
      if (found) return found;
    }
    return null;
  };
  const reachableFor = (indices) => {
    const opts = marches[draft.origin];
    const domains = new Set(indices.map((i) => unitType(opts.units[i]).domain));
    let result = null;
    for (const domain of domains) {
      const here = new Set((opts.destinations[domain] || []).map((e) => e.area));
      result = result === null ? here : new Set([...result].filter((a) => here.has(a)));
    }
    // A group of one unit type may reach further (a dragon flight, 11.5.3): the engine lists
    // those areas under `group_reach`.
    const types = new Set(indices.map((i) => opts.units[i]));
    const further = types.size === 1 ? (opts.group_reach || {})[[...types][0]] : null;
    for (const e of further || []) (result = result || new Set()).add(e.area);
    return result || new Set();
  };
  // An area only a group of one unit type reaches (`group_reach` but no `destinations`
  // entry): a dragon flight (11.5.3), tagged so the person sees it is a flight.
  const byFlight = (to) => {
    const opts = marches[draft.origin];
    const listed = (lists) => Object.values(lists || {}).some((l) => l.some((e) => e.area === to));
    return !listed(opts.destinations) && listed(opts.group_reach);
  };
  const sendTo = (to) => {
    const opts = marches[draft.origin];
    if (!draft.selected.length) {
      draft.message = t("First choose the units that march.");
      paint();
      return;
    }
    const entry = entryFor(to);
    let group = draft.groups.find((g) => g.to === to);
    if (!group) {
      group = { to, indices: [], combat: entry?.combat || null, against: entry?.against || null };
      draft.groups.push(group);
    }
    const room = entry?.room;
    for (const i of draft.selected) {
      if (room != null && group.indices.length >= room) break;
      group.indices.push(i);
    }
    draft.groups = draft.groups.filter((g) => g.indices.length);
    draft.selected = opts.units.map((_, i) => i).filter((i) => !assigned().has(i));
    draft.message = null;
    paint();
  };
  const removeGroup = (to) => {
    draft.groups = draft.groups.filter((g) => g.to !== to);
    const opts = marches[draft.origin];
    draft.selected = opts.units.map((_, i) => i).filter((i) => !assigned().has(i));
    draft.leave = false;
    paint();
  };
  const toggleUnit = (i) => {
    if (assigned().has(i)) return;
    draft.selected = draft.selected.includes(i)
      ? draft.selected.filter((x) => x !== i)
      : [...draft.selected, i];
    paint();
  };
  const action = () => {
    const opts = marches[draft.origin];
    return {
      kind: "resolve_march",
      area: draft.origin,
      moves: draft.groups.map((g) => [g.to, g.indices.map((i) => opts.units[i]).sort()]),
      leave_power: draft.leave,
    };
  };

  function paint() {
    const parts = [
      header(
        t("March"),
        t(
          "Choose the units that march, then click where they go. You may split them between several areas, with at most one combat.",
        ),
      ),
    ];
    if (origins.length > 1) {
      parts.push(
        h("p", { class: "prompt-sub" }, t("March order to resolve:")),
        h(
          "div",
          { class: "choices" },
          origins.map((id) =>
            button([orderIcon(marches[id].token, ctx.house), areaName(id)], () => pickOrigin(id), {
              class: `choice${draft.origin === id ? " is-selected" : ""}`,
              "aria-pressed": draft.origin === id ? "true" : "false",
              "data-testid": `march-origin-${id}`,
            }),
          ),
        ),
      );
    }
    if (!draft.origin) {
      parts.push(note(t("Click one of your March orders on the map.")));
      ctx.paint(...parts);
      ctx.map.setChoice(new Set(origins), pickOrigin);
      ctx.overlay({});
      return;
    }
    const opts = marches[draft.origin];
    const taken = assigned();
    parts.push(
      h(
        "p",
        { class: "prompt-sub" },
        t("{order} in {area}", { order: orderLabel(opts.token), area: areaName(draft.origin) }),
      ),
      h(
        "div",
        { class: "unit-picks" },
        opts.units.map((type, i) =>
          h(
            "button",
            {
              type: "button",
              class: `unit-pick${draft.selected.includes(i) ? " is-selected" : ""}${taken.has(i) ? " is-assigned" : ""}`,
              "aria-pressed": draft.selected.includes(i) ? "true" : "false",
              disabled: taken.has(i),
              "data-testid": `march-unit-${i}`,
              "data-unit": type,
              onclick: () => toggleUnit(i),
            },
            unitIcon(ctx.house, type),
            unitName(type),
          ),
        ),
      ),
      opts.staying ? note(t("Routed units stay behind: {n}.", { n: opts.staying })) : null,
    );
    const reach = draft.selected.length ? reachableFor(draft.selected) : new Set();
    if (draft.selected.length) {
      parts.push(
        note(
          reach.size
            ? t("Now click a highlighted area on the map, or pick it here:")
            : t("These units have nowhere to go together; choose fewer."),
        ),
      );
      parts.push(
        h(
          "div",
          { class: "choices dest-choices" },
          [...reach].map((to) => {
            const entry = entryFor(to);
            const label =
              entry?.combat === "house"
                ? t("{area} (attack {house})", {
                    area: areaName(to),
                    house: houseName(entry.against),
                  })
                : entry?.combat === "neutral"
                  ? t("{area} (neutral force {value})", {
                      area: areaName(to),
                      value: entry.neutral,
                    })
                  : areaName(to);
            const flight = byFlight(to);
            return button(
              [label, flight ? h("span", { class: "tag" }, t("flight")) : null],
              () => sendTo(to),
              {
                class: `choice dest${entry?.combat ? " is-combat" : ""}`,
                "data-testid": `march-dest-${to}`,
                "data-combat": entry?.combat || "",
                "data-reach": flight ? "flight" : "",
              },
            );
          }),
        ),
      );
    }
    if (draft.groups.length) {
      parts.push(
        h(
          "ul",
          { class: "march-groups" },
          draft.groups.map((g) =>
            h(
              "li",
              { class: `march-group${g.combat ? " is-combat" : ""}`, "data-to": g.to },
              h("span", {}, "→ ", h("strong", {}, areaName(g.to))),
              h(
                "span",
                { class: "march-group-units" },
                g.indices.map((i) => unitIcon(ctx.house, opts.units[i])),
              ),
              g.combat === "house"
                ? h(
                    "span",
                    { class: "tag tag-combat" },
                    t("combat with {house}", { house: houseName(g.against) }),
                  )
                : null,
              g.combat === "neutral"
                ? h("span", { class: "tag tag-combat" }, t("neutral force"))
                : null,
              button("×", () => removeGroup(g.to), {
                class: "button button-small",
                "aria-label": t("Cancel the move to {area}", { area: areaName(g.to) }),
              }),
            ),
          ),
        ),
      );
    }
    if (opts.may_leave_power) {
      const box = h("input", {
        type: "checkbox",
        id: "leave-power",
        "data-testid": "leave-power",
        onchange: (event) => {
          draft.leave = event.target.checked;
          paint();
        },
      });
      box.checked = draft.leave;
      parts.push(
        h(
          "label",
          { class: "check", for: "leave-power" },
          box,
          t("Leave a power token in {area} (all units must leave)", {
            area: areaName(draft.origin),
          }),
        ),
      );
    }
    parts.push(draft.message ? note(draft.message, "error") : null);
    const problem = h("p", {
      class: "prompt-note note-error",
      role: "alert",
      hidden: true,
      "data-testid": "march-problem",
    });
    const warning = promiseWarning("march");
    // The march is the main button, enabled once the server has checked the draft; removing
    // the order without moving is always allowed (5.3.1) and stays a secondary button.
    const commit = commitButton(
      t("March"),
      () => {
        const act = action();
        sendKeepingPromises(ctx, "march", act.moves.map(([to]) => to), act, warning, commit);
      },
      { disabled: true },
    );
    const remove = button(
      t("Remove the order without moving"),
      () => ctx.act({ kind: "resolve_march", area: draft.origin, moves: [], leave_power: false }),
      { "data-testid": "march-remove" },
    );
    parts.push(hint, problem, warning);
    parts.push(
      h(
        "div",
        { class: "prompt-actions" },
        commit,
        remove,
        draft.groups.length
          ? button(t("Start over"), () => {
              reset();
              pickOrigin(draft.origin);
            })
          : null,
        origins.length > 1
          ? button(t("Another order"), () => {
              reset();
              draft.origin = null;
              paint();
            })
          : null,
      ),
    );
    ctx.paint(...parts);
    hint.hidden = true;
    const asked = (draft.hintSeq = (draft.hintSeq || 0) + 1);
    if (draft.groups.length) {
      ctx.hint(action()).then((reply) => {
        if (asked !== draft.hintSeq) return;
        const verdict = reply?.hint;
        // No reply (timeout, old server): let the server judge the march when it is sent.
        commit.disabled = verdict ? !verdict.legal : false;
        commit.dataset.checked = "1";
        problem.hidden = !verdict || verdict.legal;
        problem.textContent = verdict && !verdict.legal ? problemText(verdict.problem) : "";
        showHint(hint, reply);
        if (verdict?.legal) {
          hint.append(...previewNotes(verdict));
          if (hint.childNodes.length) {
            hint.hidden = false;
            hint.dataset.ready = "1";
          }
        }
      });
    }
    const choosable = new Map();
    for (const to of reach)
      choosable.set(
        to,
        entryFor(to)?.combat === "house"
          ? "combat"
          : entryFor(to)?.combat === "neutral"
            ? "neutral"
            : "",
      );
    for (const id of origins) if (!choosable.has(id)) choosable.set(id, "origin");
    ctx.map.setChoice(choosable, (id) => (reach.has(id) ? sendTo(id) : pickOrigin(id)), [
      draft.origin,
    ]);
    ctx.map.setArrows(
      draft.groups.map((g) => ({ from: draft.origin, to: g.to, combat: Boolean(g.combat) })),
    );
    ctx.overlay({ moving: { area: draft.origin, count: taken.size } });
  }
  if (draft.origin && !draft.groups.length && !draft.selected.length) {
    draft.selected = marches[draft.origin].units.map((_, i) => i);
  }
  paint();
}
