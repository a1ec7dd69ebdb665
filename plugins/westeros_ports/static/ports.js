// The ports plugin in the browser (RULES.md 6): the port take-over screen (6.3.1) and how the
// map draws ports (small markers whose pieces float in the port's sea). Imported by the board
// only in games with ports (register_client_scripts).
import { areaName } from "/static/js/content.js";
import { h } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { commitButton, header, note, numberPicker } from "/static/js/prompts/common.js";
import { registerPlugin } from "/static/js/registry.js";

/** port_takeover: how many own ships replace the removed ones (6.3.1). */
function portTakeover(ctx) {
  const { data, draft } = ctx;
  draft.count ??= data.max;
  ctx.paint(
    header(
      t("Take over {port}", { port: areaName(data.port) }),
      t(
        "The ships in the port were removed. You may put up to {max} of your own available ships there.",
        { max: data.max },
      ),
    ),
    numberPicker(
      data.min ?? 0,
      data.max,
      draft.count,
      (value) => {
        draft.count = value;
      },
      t("Ships"),
    ),
    note(t("Removed ships: {n}", { n: data.removed })),
    h(
      "div",
      { class: "prompt-actions" },
      commitButton(t("Confirm"), () => ctx.act({ kind: "take_over_ships", count: draft.count })),
    ),
  );
  ctx.map.clearChoice();
  ctx.map.setSelected([data.port]);
  ctx.overlay({});
}

/** A port's pieces lie in the sea area it touches (6.1). */
function portFillShape(area, map) {
  const sea = area.between.map((id) => map.areas.get(id)).find((a) => a && a.kind === "sea");
  return sea ? sea.shape : null;
}

registerPlugin("westeros_ports", {
  prompts: { port_takeover: portTakeover },
  phases: { port_takeover: () => t("Action: take over a port") },
  titles: {
    port_takeover: () => ({
      phase: t("Action phase"),
      title: t("Take over the port"),
      text: t(
        "The ships in the port were removed. You may put some of your own available ships there.",
      ),
    }),
  },
  areaKinds: { port: { marker: true, fillShape: portFillShape, label: () => t("Port") } },
});
