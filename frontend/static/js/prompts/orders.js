// Placing orders (RULES 4.1-4.3) and the Messenger Raven (4.4).
import { areaName, houseName, orderLabel, orderToken, orderTypeName } from "../content.js";
import { h } from "../dom.js";
import { t, tn } from "../i18n.js";
import { orderIcon } from "../map.js";
import { button, choiceButton, commitButton, header, note } from "./common.js";

const TYPE_ORDER = ["march", "defense", "support", "raid", "consolidate_power"];
const SHORTCUTS = { m: "march", d: "defense", s: "support", r: "raid", c: "consolidate_power" };

function starsIn(orders, tokens) {
  let stars = 0;
  for (const id of Object.values(orders)) if (tokens.get(id)?.star) stars += 1;
  return stars;
}

/** Why the placement cannot be committed yet (mirrors 4.1-4.3; a house that places only
 * some orders, `max_orders` at most, when `fill_every_area` is false), or null. */
export function placementProblem(data, orders) {
  const tokens = new Map(data.tokens.map((token) => [token.id, token]));
  const stars = starsIn(orders, tokens);
  if (stars > data.star_limit) {
    return tn(
      "You may place only {n} starred order.",
      "You may place only {n} starred orders.",
      data.star_limit,
    );
  }
  if (data.max_orders != null && Object.keys(orders).length > data.max_orders) {
    return tn(
      "You may place only {n} order.",
      "You may place only {n} orders.",
      data.max_orders,
    );
  }
  const empty = data.areas.filter((area) => !orders[area]);
  if (!empty.length || data.fill_every_area === false) return null;
  const used = new Set(Object.values(orders));
  const spare = data.tokens.some(
    (token) => !used.has(token.id) && !token.forbidden && (!token.star || stars < data.star_limit),
  );
  if (spare) {
    return tn("{n} area still needs an order.", "{n} areas still need an order.", empty.length);
  }
  return null;
}

/** place_orders: pick an area (map or list), then a token from the palette. */
export function placeOrders(ctx) {
  const { data, draft } = ctx;
  draft.orders ??= {};
  draft.area ??= data.areas.find((area) => !draft.orders[area]) ?? data.areas[0];
  const tokens = new Map(data.tokens.map((token) => [token.id, token]));

  const nextEmpty = () => data.areas.find((area) => !draft.orders[area]) ?? draft.area;
  const place = (tokenId) => {
    if (!draft.area) return;
    for (const [area, id] of Object.entries(draft.orders))
      if (id === tokenId) delete draft.orders[area];
    draft.orders[draft.area] = tokenId;
    draft.area = nextEmpty();
    paint();
  };
  const choose = (area) => {
    draft.area = area;
    paint();
  };
  const clear = (area) => {
    delete draft.orders[area];
    draft.area = area;
    paint();
  };
  const fits = (token, area) => !data.only_in?.[token.id] || data.only_in[token.id].includes(area);
  const full = () =>
    data.max_orders != null && Object.keys(draft.orders).length >= data.max_orders;
  const usable = (token) => {
    if (token.forbidden || !fits(token, draft.area)) return false;
    const current = draft.orders[draft.area];
    if (!current && full()) return false;
    const stars = starsIn(draft.orders, tokens) - (current && tokens.get(current)?.star ? 1 : 0);
    return !token.star || stars < data.star_limit;
  };
  ctx.keys = (key) => {
    const type = SHORTCUTS[key.toLowerCase()];
    if (!type || !draft.area) return false;
    const used = new Set(Object.values(draft.orders));
    const candidates = data.tokens.filter(
      (token) => token.type === type && usable(token) && !used.has(token.id),
    );
    candidates.sort((a, b) => Number(a.star) - Number(b.star) || b.bonus - a.bonus);
    if (candidates.length) place(candidates[0].id);
    return true;
  };

  function paint() {
    const used = new Map(Object.entries(draft.orders).map(([area, id]) => [id, area]));
    const stars = starsIn(draft.orders, tokens);
    const problem = placementProblem(data, draft.orders);
    const rows = data.areas.map((area) =>
      h(
        "li",
        { class: `order-row${area === draft.area ? " is-selected" : ""}`, "data-area": area },
        choiceButton(areaName(area), area === draft.area, () => choose(area), {
          "data-key": `area-${area}`,
          "data-testid": `order-area-${area}`,
        }),
        draft.orders[area]
          ? h(
              "span",
              { class: "order-placed" },
              orderIcon(draft.orders[area], ctx.house),
              orderLabel(draft.orders[area]),
            )
          : h("span", { class: "muted" }, t("no order")),
        draft.orders[area]
          ? button("×", () => clear(area), {
              class: "button button-small",
              "aria-label": t("Remove the order in {area}", { area: areaName(area) }),
            })
          : null,
      ),
    );
    const types = [...TYPE_ORDER, ...new Set(data.tokens.map((token) => token.type))];
    const palette = [...new Set(types)].map((type) => {
      const ofType = data.tokens.filter((token) => token.type === type);
      if (!ofType.length) return null;
      return h(
        "div",
        { class: "palette-group" },
        h("span", { class: "palette-type" }, orderTypeName(type)),
        ofType.map((token) => {
          const where = used.get(token.id);
          // a token placed in another area stays there until removed (no silent move)
          const elsewhere = Boolean(where) && where !== draft.area;
          const disabled = elsewhere || (!usable(token) && draft.orders[draft.area] !== token.id);
          return h(
            "button",
            {
              type: "button",
              class: `token-button${where ? " is-used" : ""}${draft.orders[draft.area] === token.id ? " is-selected" : ""}`,
              disabled: disabled || !draft.area,
              title: token.forbidden
                ? t("No {orders} orders this round.", { orders: orderLabel(token.id) })
                : elsewhere
                  ? t("Placed in {area}: remove it there to place it here.", {
                      area: areaName(where),
                    })
                  : orderLabel(token.id),
              "data-token": token.id,
              "data-key": `token-${token.id}`,
              "data-testid": `token-${token.id}`,
              onclick: () => place(token.id),
            },
            orderIcon(token.id, ctx.house),
            h("span", { class: "token-label" }, orderLabel(token.id)),
          );
        }),
      );
    });
    const other = ctx.seat && ctx.house !== ctx.seat;
    ctx.paint(
      header(
        other
          ? t("Place the orders of {house}", { house: houseName(ctx.house) })
          : t("Place your orders"),
        t(
          "Choose an area, then an order token. Orders stay hidden from the other houses until all are revealed.",
        ),
      ),
      data.max_orders != null
        ? h(
            "p",
            { class: "prompt-stat", "data-testid": "orders-count" },
            t("Orders: {used} of at most {limit}", {
              used: Object.keys(draft.orders).length,
              limit: data.max_orders,
            }),
          )
        : null,
      h(
        "p",
        { class: "prompt-stat" },
        t("Starred orders: {used} of {limit}", { used: stars, limit: data.star_limit }),
      ),
      h("ol", { class: "order-rows" }, rows),
      draft.area
        ? h("p", { class: "prompt-sub" }, t("Order for {area}:", { area: areaName(draft.area) }))
        : null,
      h("div", { class: "palette" }, palette),
      note(problem),
      h(
        "div",
        { class: "prompt-actions" },
        commitButton(
          t("Commit orders"),
          () => ctx.act({ kind: "place_orders", orders: Object.entries(draft.orders) }),
          { disabled: Boolean(problem) },
        ),
      ),
    );
    ctx.map.setChoice(new Set(data.areas), choose, draft.area ? [draft.area] : []);
    ctx.overlay({ orders: draft.orders });
  }
  paint();
}

/** messenger_raven: replace one order, look at the top wildling card, or do nothing. */
export function messengerRaven(ctx) {
  const { data, draft } = ctx;
  draft.mode ??= null;
  const tokens = new Map(data.tokens.map((token) => [token.id, token]));
  const ownAreas = Object.keys(data.orders || {});
  const allowed = (area, token) => {
    if (token.forbidden) return false;
    if (data.only_in?.[token.id] && !data.only_in[token.id].includes(area)) return false;
    const old = orderToken(data.orders[area]);
    return data.stars_placed - (old.star ? 1 : 0) + (token.star ? 1 : 0) <= data.star_limit;
  };

  function paint() {
    const parts = [
      header(
        t("Messenger Raven"),
        t(
          "You hold the Messenger Raven. You may swap one of your orders for an unused one, or look at the top wildling card.",
        ),
      ),
    ];
    const modes = h(
      "div",
      { class: "choices" },
      ownAreas.length && data.tokens.length
        ? choiceButton(
            t("Replace one of my orders"),
            draft.mode === "replace",
            () => {
              draft.mode = "replace";
              draft.area ??= ownAreas[0];
              paint();
            },
            { "data-testid": "raven-replace" },
          )
        : null,
      (data.options || []).map((option) =>
        choiceButton(
          option === "nothing" ? t("Do nothing") : t("Look at the top wildling card"),
          draft.mode === option,
          () => {
            draft.mode = option;
            paint();
          },
          { "data-testid": `option-${option}` },
        ),
      ),
    );
    parts.push(modes);
    let action = null;
    if (draft.mode === "replace") {
      parts.push(
        h("p", { class: "prompt-sub" }, t("Order to replace:")),
        h(
          "div",
          { class: "choices" },
          ownAreas.map((area) =>
            choiceButton(
              [
                orderIcon(data.orders[area], ctx.house),
                `${areaName(area)} · ${orderLabel(data.orders[area])}`,
              ],
              draft.area === area,
              () => {
                draft.area = area;
                draft.token = null;
                paint();
              },
            ),
          ),
        ),
        h("p", { class: "prompt-sub" }, t("New order:")),
        h(
          "div",
          { class: "palette" },
          data.tokens.map((token) =>
            h(
              "button",
              {
                type: "button",
                class: `token-button${draft.token === token.id ? " is-selected" : ""}`,
                disabled: !draft.area || !allowed(draft.area, token),
                title: token.forbidden
                  ? t("No {orders} orders this round.", { orders: orderLabel(token.id) })
                  : orderLabel(token.id),
                onclick: () => {
                  draft.token = token.id;
                  paint();
                },
              },
              orderIcon(token.id, ctx.house),
              h("span", { class: "token-label" }, orderLabel(token.id)),
            ),
          ),
        ),
      );
      if (draft.area && draft.token && tokens.has(draft.token))
        action = { kind: "replace_order", area: draft.area, token: draft.token };
    } else if (draft.mode) {
      action = { kind: "choose", option: draft.mode };
    }
    parts.push(
      h(
        "div",
        { class: "prompt-actions" },
        commitButton(t("Confirm"), () => ctx.act(action), { disabled: !action }),
      ),
    );
    ctx.paint(...parts);
    if (draft.mode === "replace")
      ctx.map.setChoice(
        new Set(ownAreas),
        (area) => {
          draft.area = area;
          draft.token = null;
          paint();
        },
        draft.area ? [draft.area] : [],
      );
    else ctx.map.clearChoice();
    const shown = { ...data.orders };
    if (draft.mode === "replace" && draft.area && draft.token) shown[draft.area] = draft.token;
    ctx.overlay({ orders: draft.mode === "replace" ? shown : {} });
  }
  paint();
}
