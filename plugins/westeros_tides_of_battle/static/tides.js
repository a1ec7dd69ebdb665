// The Tides of Battle plugin in the browser (RULES.md 10): the Valyrian Steel Blade redraw
// screen (10.3) and the names of the cards. Imported by the board only in games with the
// Tides of Battle option on (register_client_scripts).
import { t } from "/static/js/i18n.js";
import { chooseOption } from "/static/js/prompts/generic.js";
import { note } from "/static/js/prompts/common.js";
import { registerPlugin } from "/static/js/registry.js";

const CARDS = {
  zero: () => t("a 0"),
  sword: () => t("a 1 with a sword"),
  fortification: () => t("a 1 with a fortification"),
  two: () => t("a 2"),
  three: () => t("a 3"),
  skull: () => t("a skull"),
};

/** A Tides of Battle card in words. */
function cardName(id) {
  return CARDS[id] ? CARDS[id]() : String(id);
}

/** tides_redraw: keep the drawn card or use the Blade to draw again (10.3). */
function tidesRedraw(ctx) {
  chooseOption(
    ctx,
    t("Tides of Battle"),
    null,
    note(
      t("You drew {card}. You may use the Valyrian Steel Blade to draw again; the new card counts.", {
        card: cardName(ctx.data.card),
      }),
    ),
  );
}

registerPlugin("westeros_tides_of_battle", {
  prompts: { tides_redraw: tidesRedraw },
  phases: { tides_redraw: () => t("Combat: Tides of Battle") },
  titles: {
    tides_redraw: () => ({
      phase: t("Combat"),
      title: t("Tides of Battle: keep or draw again?"),
      text: t(
        "You may use the Valyrian Steel Blade to discard your Tides of Battle card and draw another one instead of the +1 strength.",
      ),
    }),
  },
  options: { keep: () => t("Keep the card"), redraw: () => t("Draw again") },
  reasons: {
    "tides-of-battle": { name: () => t("Tides of Battle") },
    "tides-of-battle-redraw": { name: () => t("Tides of Battle") },
    "tides-of-battle-skull": {
      name: () => t("Tides of Battle: a skull"),
      phase: () => t("Combat"),
      asks: () => ({
        title: t("Tides of Battle: a skull"),
        text: t("Your opponent's Tides of Battle card shows a skull: you lose one unit. Pick which."),
      }),
    },
  },
});
