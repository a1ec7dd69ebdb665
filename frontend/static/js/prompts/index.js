// Which renderer answers which prompt kind (engine Prompt.kind, see docs/protocol.md).
import { promptText } from "../prompt-titles.js";
import { consolidate, muster, raid } from "./actions.js";
import { bid, orderTies, portTakeover } from "./bids.js";
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
  port_takeover: portTakeover,
  choose_house_card: chooseHouseCard,
  declare_support: declareSupport,
  support_neutral_attack: supportNeutralAttack,
  choose_option: (ctx) =>
    ctx.data.reason === "valyrian-steel-blade" ? blade(ctx) : chooseOption(ctx, ...words(ctx)),
  tides_redraw: (ctx) => chooseOption(ctx, ...words(ctx)),
  choose_area: (ctx) => chooseArea(ctx, ...words(ctx)),
  muster_area: (ctx) => chooseArea(ctx, ...words(ctx)),
  destroy_area: (ctx) => chooseArea(ctx, ...words(ctx)),
  destroy_units: (ctx) => selectUnits(ctx, ...words(ctx)),
  reconcile_supply: (ctx) => selectUnits(ctx, ...words(ctx)),
  upgrade_units: (ctx) => selectUnits(ctx, ...words(ctx)),
  replace_units: (ctx) => selectUnits(ctx, ...words(ctx)),
};

/** Draw the decision `ctx.prompt` into the prompt panel. */
export function renderPrompt(ctx) {
  const render = RENDERERS[ctx.prompt.kind] || fallback;
  render(ctx);
}

/** The plain title and description of the prompt in `ctx` (prompt-titles.js). */
function words(ctx) {
  const { title, text } = promptText(ctx.prompt);
  return [title, text];
}
