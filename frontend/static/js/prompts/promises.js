// The warning before an act that breaks one of this seat's promises of the round (issue 36
// point 5): deals are not enforced, so the act is sent once the person confirms; which areas
// break a promise comes from the server (deals.js `promisesBroken`), never from a rule here.
import { areaName } from "../content.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { button } from "./common.js";

/** The words of the warning for a march and for a raid. */
const WORDS = {
  march: () => ({
    title: t("This march breaks a promise you made this round."),
    line: (area, promises) => t("Into {area}: {promises}", { area, promises }),
    anyway: t("March anyway"),
  }),
  raid: () => ({
    title: t("This raid breaks a promise you made this round."),
    line: (area, promises) => t("On {area}: {promises}", { area, promises }),
    anyway: t("Raid anyway"),
  }),
};

/** Send `act` (a march or raid: `kind`) into `areas` with `ctx.act`, unless it breaks one of
 * the seat's promises: then show `warning` naming them, with "… anyway", which sends it, and
 * "Cancel", which sends nothing. `commit` stays disabled while the promises are checked and
 * the warning shows. */
export async function sendKeepingPromises(ctx, kind, areas, act, warning, commit) {
  commit.disabled = true;
  const { promisesBroken } = await import("../deals.js");
  const broken = await promisesBroken(ctx.house, areas, kind);
  const send = () => {
    commit.disabled = false; // the board disables it while sending and enables it again if refused
    ctx.act(act);
  };
  if (!broken.length) {
    send();
    return;
  }
  const words = WORDS[kind]();
  const lines = broken.map(({ area, promises }) =>
    h("li", { "data-area": area }, words.line(areaName(area), promises.join("; "))),
  );
  warning.replaceChildren(
    h("strong", {}, words.title),
    h("ul", { class: "march-promise-list" }, lines),
    h("p", {}, t("Nobody stops you, but the game log will show that you broke your word.")),
    h(
      "div",
      { class: "prompt-actions" },
      button(words.anyway, () => {
        warning.hidden = true;
        send();
      }, { class: "button button-primary", "data-testid": `${kind}-promise-confirm` }),
      button(t("Cancel"), () => {
        warning.hidden = true;
        commit.disabled = false;
      }, { "data-testid": `${kind}-promise-cancel` }),
    ),
  );
  warning.hidden = false;
}

/** The (hidden) box the warning of a `kind` act shows in. */
export function promiseWarning(kind) {
  return h("div", {
    class: "prompt-note note-error march-promise",
    role: "alert",
    hidden: true,
    "data-testid": `${kind}-promise-warning`,
  });
}
