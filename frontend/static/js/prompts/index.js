// Which renderer answers which prompt kind (engine Prompt.kind, see docs/protocol.md): the
// host's screens for the base game's kinds, then those plugins register (registry.js), then a
// generic screen built from the prompt's data. Screens are chosen by kind, never by `reason`.
import { houseName } from "../content.js";
import { t } from "../i18n.js";
import { promptText } from "../prompt-titles.js";
import { pluginPrompt } from "../registry.js";
import { consolidate, muster, raid } from "./actions.js";
import { bid, orderTies } from "./bids.js";
import { blade, chooseHouseCard, declareSupport, supportNeutralAttack } from "./combat.js";
import { chooseArea, chooseOption, fallback, selectUnits } from "./generic.js";
import { march } from "./march.js";
import { messengerRaven, placeOrders } from "./orders.js";

const RENDERERS = {
  place_orders: placeOrders,
  messenger_raven: messengerRaven,
  raid,
  march,
  consolidate_power: consolidate,
  muster,
  bid,
  wildling_bid: bid,
  order_ties: orderTies,
  choose_house_card: chooseHouseCard,
  declare_support: declareSupport,
  support_neutral_attack: supportNeutralAttack,
  use_blade: blade,
  choose_option: (ctx) => chooseOption(ctx, ...words(ctx)),
  retreat,
  choose_area: (ctx) => chooseArea(ctx, ...words(ctx)),
  muster_area: (ctx) => chooseArea(ctx, ...words(ctx)),
  destroy_area: (ctx) => chooseArea(ctx, ...words(ctx)),
  destroy_units: (ctx) => selectUnits(ctx, ...words(ctx)),
  reconcile_supply: (ctx) => selectUnits(ctx, ...words(ctx)),
  upgrade_units: (ctx) => selectUnits(ctx, ...words(ctx)),
  replace_units: (ctx) => selectUnits(ctx, ...words(ctx)),
};

/** retreat (5.4.10): the loser's survivors retreat; with Robb Stark the winner chooses. */
function retreat(ctx) {
  const own = ctx.data.loser === ctx.house;
  chooseArea(
    ctx,
    t("Retreat"),
    own
      ? t(
          "Your army lost the combat. Choose where the survivors retreat; they are routed until the end of the round.",
        )
      : t(
          "You won the combat, and your card lets you choose where {house}'s survivors retreat; they are routed until the end of the round.",
          { house: houseName(ctx.data.loser) },
        ),
  );
}

/** Draw the decision `ctx.prompt` into the prompt panel. */
export function renderPrompt(ctx) {
  const kind = ctx.prompt.kind;
  const render = RENDERERS[kind] || pluginPrompt(kind) || fallback;
  render(ctx);
}

/** The plain title and description of the prompt in `ctx` (prompt-titles.js). */
function words(ctx) {
  const { title, text } = promptText(ctx.prompt);
  return [title, text];
}
