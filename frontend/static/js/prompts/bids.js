// Secret bids (Clash of Kings 3.6, wildlings 7.2) and ordering tied houses (3.6.3).
import { houseName, trackName } from "../content.js";
import { h } from "../dom.js";
import { t, tn } from "../i18n.js";
import { houseChip } from "../panels.js";
import { button, commitButton, header, numberPicker } from "./common.js";

/** bid and wildling_bid: 0..available power tokens, kept secret until all have bid. */
export function bid(ctx) {
  const { data, draft, view, prompt } = ctx;
  draft.amount ??= 0;
  const wildlings = prompt.kind === "wildling_bid";
  function paint() {
    ctx.paint(
      header(
        wildlings
          ? t("Bid against the wildlings")
          : t("Bid for the {track} track", { track: trackName(data.track) }),
        wildlings
          ? t(
              "The wildlings attack with strength {strength}. Together the houses must bid at least as much power.",
              { strength: data.strength },
            )
          : t(
              "Bids are secret and revealed together; the highest bid takes the first place. Tokens you bid are lost.",
            ),
      ),
      wildlings ? null : currentTrack(view, data.track),
      h("p", { class: "prompt-stat" }, tn("You have {n} power token.", "You have {n} power tokens.", data.max)),
      numberPicker(
        data.min ?? 0,
        data.max,
        draft.amount,
        (value) => {
          draft.amount = value;
          commit.textContent = t("Bid {n}", { n: value });
        },
        t("Your bid"),
      ),
      h(
        "div",
        { class: "choices" },
        button(t("Nothing"), () => setTo(0), { class: "button button-small" }),
        button(t("Half"), () => setTo(Math.floor(data.max / 2)), { class: "button button-small" }),
        button(t("Everything"), () => setTo(data.max), { class: "button button-small" }),
      ),
      h("div", { class: "prompt-actions" }, commit),
    );
    ctx.map.clearChoice();
    ctx.overlay({});
  }
  const setTo = (value) => {
    draft.amount = value;
    paint();
  };
  const commit = commitButton(t("Bid {n}", { n: draft.amount }), () =>
    ctx.act({ kind: "bid", amount: draft.amount }),
  );
  paint();
}

function currentTrack(view, track) {
  const order = view.tracks[track] || [];
  return h(
    "ol",
    { class: "mini-track" },
    order.map((house) => h("li", {}, houseChip(house, { name: false }))),
  );
}

/** order_ties: the Iron Throne holder orders houses whose bids tied. */
export function orderTies(ctx) {
  const { data, draft } = ctx;
  draft.groups ??= data.groups.map((g) => [...g.houses]);
  const move = (g, i, delta) => {
    const list = draft.groups[g];
    const j = i + delta;
    if (j < 0 || j >= list.length) return;
    [list[i], list[j]] = [list[j], list[i]];
    paint();
  };
  function paint() {
    ctx.paint(
      header(
        t("Break the ties on {track}", { track: trackName(data.track) }),
        t(
          "As holder of the Iron Throne you decide the order of houses that bid the same. Higher bids stay ahead.",
        ),
      ),
      h(
        "ol",
        { class: "tie-groups" },
        data.groups.map((group, g) =>
          h(
            "li",
            { class: "tie-group" },
            h("span", { class: "tie-bid" }, t("Bid {n}", { n: group.bid })),
            h(
              "ol",
              { class: "tie-houses" },
              draft.groups[g].map((house, i) =>
                h(
                  "li",
                  { class: "tie-house" },
                  houseChip(house),
                  draft.groups[g].length > 1
                    ? [
                        button("↑", () => move(g, i, -1), {
                          class: "button button-small",
                          disabled: i === 0,
                          "aria-label": t("Move {house} up", { house: houseName(house) }),
                        }),
                        button("↓", () => move(g, i, 1), {
                          class: "button button-small",
                          disabled: i === draft.groups[g].length - 1,
                          "aria-label": t("Move {house} down", { house: houseName(house) }),
                        }),
                      ]
                    : null,
                ),
              ),
            ),
          ),
        ),
      ),
      h(
        "div",
        { class: "prompt-actions" },
        commitButton(t("Confirm the order"), () =>
          ctx.act({ kind: "track_order", houses: draft.groups.flat() }),
        ),
      ),
    );
    ctx.map.clearChoice();
    ctx.overlay({});
  }
  paint();
}
