// The banner of a paused game (issue 35 finding 3): a plugin's rule failed, so the core took
// nothing more for this game. The `paused` message (docs/protocol.md) names the plugin, its
// hook and the class of what it raised; the plugin's own error text stays in the core's log.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { announce } from "./map.js";

/** Show the banner of the board page's `#paused` for a `paused` message. */
export function showPause(message) {
  const banner = document.getElementById("paused");
  if (!banner || message.type !== "paused") return;
  const headline = t("The game is paused: the {plugin} plugin failed.", {
    plugin: message.plugin,
  });
  banner.replaceChildren(
    h("strong", { class: "pause-title" }, headline),
    h(
      "p",
      {},
      t("Its rule {hook} raised {error}; nothing of the last action was saved.", {
        hook: message.hook,
        error: message.error,
      }),
    ),
    h(
      "p",
      {},
      t(
        "Update the plugin, restart Westeros and continue this game: it goes on from its last " +
          "good action. Without the plugin this game cannot be loaded. The command " +
          "“westeros plugins” lists the fault.",
      ),
    ),
  );
  banner.hidden = false;
  announce(headline);
}
