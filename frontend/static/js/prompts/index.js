// Which renderer answers which prompt kind (engine Prompt.kind, see docs/protocol.md): the
// host's screens for the base game's kinds, then those plugins register (registry.js), then a
// generic screen built from the prompt's data. Screens are chosen by kind, never by `reason`.
import { houseName } from "../content.js";
import { t } from "../i18n.js";
import { pluginPhase, pluginPrompt } from "../registry.js";
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
  choose_option: (ctx) => chooseOption(ctx),
  retreat,
  choose_area: (ctx) => chooseArea(ctx),
  muster_area: (ctx) => chooseArea(ctx, t("Choose where to muster")),
  destroy_area: (ctx) => chooseArea(ctx, t("Choose where you lose two units")),
  destroy_units: (ctx) => selectUnits(ctx, t("Destroy units"), null),
  reconcile_supply: (ctx) =>
    selectUnits(
      ctx,
      t("Reconcile your armies with supply"),
      t(
        "You have more or larger armies than your supply allows. Destroy a unit of one of your armies.",
      ),
    ),
  upgrade_units: (ctx) =>
    selectUnits(ctx, t("Upgrade footmen"), t("You may replace footmen with knights.")),
  replace_units: (ctx) =>
    selectUnits(ctx, t("Downgrade knights"), t("Choose the knights that become footmen.")),
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

/** A short title for a prompt kind (for the top bar). */
export function phaseOf(kind) {
  const names = {
    place_orders: t("Planning: place orders"),
    messenger_raven: t("Planning: Messenger Raven"),
    raid: t("Action: raid"),
    march: t("Action: march"),
    consolidate_power: t("Action: consolidate power"),
    declare_support: t("Combat: support"),
    choose_house_card: t("Combat: house cards"),
    bid: t("Westeros: Clash of Kings"),
    wildling_bid: t("Wildling attack"),
    muster: t("Mustering"),
    use_blade: t("Combat: Valyrian Steel Blade"),
    retreat: t("Combat: retreat"),
  };
  return names[kind] || pluginPhase(kind);
}
