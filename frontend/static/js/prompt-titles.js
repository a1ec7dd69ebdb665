// Plain words for every decision: a title, a description (what is decided, why, what each
// choice does) and the top bar's phase, chosen by the prompt's kind (engine Prompt.kind) and,
// where one kind serves several rules, by what asks (a card, a Westeros or wildling card).
// Engine `reason` strings ("4.4 Messenger Raven", "7.2.3 highest bidder") are never shown as
// titles; reasonLabel() turns them into names without rule numbers.
import { anyCardName, isHouseCard, houseCard, prettify, westerosCard } from "./content.js";
import { t, tc } from "./i18n.js";
import { pluginPhase, pluginReason, pluginTitle } from "./registry.js";

const PLANNING = () => t("Planning phase");
const ACTION = () => t("Action phase");
const COMBAT = () => t("Combat");
const WESTEROS = () => t("Westeros phase");
const WILDLINGS = () => t("Wildlings attack");

/** {kind: () => {phase, title, text}} for every prompt kind the engine asks (a plugin's own
 * kinds: its `titles`, registry.js). */
export const PROMPTS = {
  place_orders: () => ({
    phase: PLANNING(),
    title: t("Place your orders"),
    text: t(
      "Put one order token face down in every area with your units. March moves armies, Defense and Support add strength, Raid removes an enemy order, Consolidate Power gains power tokens. All orders are revealed together.",
    ),
  }),
  messenger_raven: () => ({
    phase: PLANNING(),
    title: t("Messenger Raven"),
    text: t(
      "You hold the Messenger Raven. You may swap one of your orders for an unused one, or look at the top wildling card, or do nothing.",
    ),
  }),
  raid: () => ({
    phase: ACTION(),
    title: t("Raid"),
    text: t(
      "Choose a Raid order and the adjacent enemy order it removes. Raiding Consolidate Power takes one power token from its owner.",
    ),
  }),
  march: () => ({
    phase: ACTION(),
    title: t("March"),
    text: t(
      "Choose the units that march, then click where they go. Marching into an enemy area starts a combat; you may leave a power token to keep control of the area you leave.",
    ),
  }),
  consolidate_power: () => ({
    phase: ACTION(),
    title: t("Consolidate Power"),
    text: t(
      "Choose one of your Consolidate Power orders to resolve: it gains power tokens for the crowns of its area (a starred one in a castle may muster instead).",
    ),
  }),
  declare_support: () => ({
    phase: COMBAT(),
    title: t("Declare your support"),
    text: t(
      "Your Support order is next to a combat. Add its strength to the attacker, to the defender, or to nobody.",
    ),
  }),
  choose_house_card: () => ({
    phase: COMBAT(),
    title: t("Choose your house card"),
    text: t(
      "Both houses in the combat pick a house card in secret; the cards are revealed together. Its strength adds to your army, and its text may change the combat.",
    ),
  }),
  destroy_units: () => ({
    phase: COMBAT(),
    title: t("Choose the units you lose"),
    text: t("You must destroy some of your units. Pick which ones; the others stay on the board."),
  }),
  choose_area: () => ({
    phase: COMBAT(),
    title: t("Choose an area"),
    text: t("A card's ability lets you pick an area on the map. Click a highlighted area."),
  }),
  choose_option: () => ({
    phase: t("Decision"),
    title: t("Make a choice"),
    text: t("Pick one of the choices below; each says what it does."),
  }),
  support_neutral_attack: () => ({
    phase: COMBAT(),
    title: t("Support an attack on a neutral force?"),
    text: t(
      "Another house attacks a neutral force next to your Support order and is too weak alone. If you agree, your support adds to its attack (never to the neutral force).",
    ),
  }),
  use_blade: () => ({
    phase: COMBAT(),
    title: t("Use the Valyrian Steel Blade?"),
    text: t(
      "You hold the Valyrian Steel Blade: once a round you may use it to add 1 to your side's combat strength.",
    ),
  }),
  retreat: () => ({
    phase: COMBAT(),
    title: t("Retreat"),
    text: t(
      "Choose where the survivors of the defeated army retreat; they are routed until the end of the round.",
    ),
  }),
  muster: () => ({
    phase: WESTEROS(),
    title: t("Mustering"),
    text: t(
      "Spend this area's mustering points on new units or upgrades (a castle gives 1 point, a stronghold 2). Press Done when you have finished.",
    ),
  }),
  reconcile_supply: () => ({
    phase: WESTEROS(),
    title: t("Reconcile your armies with supply"),
    text: t(
      "You have more or larger armies than your supply allows. Destroy a unit of one of your armies until they fit.",
    ),
  }),
  bid: () => ({
    phase: WESTEROS(),
    title: t("Clash of Kings: bid for a track"),
    text: t(
      "Bid power tokens in secret for a place on an influence track. The highest bid takes the top place; every bid is spent.",
    ),
  }),
  order_ties: () => ({
    phase: WESTEROS(),
    title: t("Break the ties"),
    text: t(
      "As holder of the Iron Throne you decide the order of houses that bid the same. Higher bids stay ahead.",
    ),
  }),
  wildling_bid: () => ({
    phase: WILDLINGS(),
    title: t("Bid against the wildlings"),
    text: t(
      "The wildlings attack. Bid power tokens in secret for the Night's Watch: if all bids together reach the wildlings' strength, the houses win, else the wildlings do. The highest and lowest bidders are affected most.",
    ),
  }),
  muster_area: () => ({
    phase: WILDLINGS(),
    title: t("Choose where to muster"),
    text: t("The wildling card lets you muster in one of your castles. Pick the area."),
  }),
  destroy_area: () => ({
    phase: WILDLINGS(),
    title: t("Choose where you lose two units"),
    text: t("The wildlings won: pick the area in which two of your units are destroyed."),
  }),
  upgrade_units: () => ({
    phase: WILDLINGS(),
    title: t("Upgrade footmen"),
    text: t("You may replace footmen with knights."),
  }),
  replace_units: () => ({
    phase: WILDLINGS(),
    title: t("Downgrade knights"),
    text: t("Choose the knights that become footmen."),
  }),
};

// What asks a choose_option / choose_area / destroy_units question, by its reason without the
// rule number (Westeros and wildling cards, combat steps).
const ASKED_BY = {
  "valyrian-steel-blade": () => ({
    title: t("Use the Valyrian Steel Blade?"),
    text: t(
      "You hold the Valyrian Steel Blade: once per round it adds +1 to your combat strength. Use it now, or keep it for a later combat this round.",
    ),
  }),
  "a-throne-of-blades": () => ({
    title: t("A Throne of Blades: choose what happens"),
    text: t(
      "As holder of the Iron Throne you choose: Supply (every house adjusts its supply and reconciles its armies), Mustering (every house musters new units), or nothing.",
    ),
  }),
  "dark-wings-dark-words": () => ({
    title: t("Dark Wings, Dark Words: choose what happens"),
    text: t(
      "As holder of the Messenger Raven you choose: Clash of Kings (bidding for the influence tracks), Game of Thrones (every house gains power for its crowns), or nothing.",
    ),
  }),
  "put-to-the-sword": () => ({
    title: t("Put to the Sword: choose a restriction"),
    text: t(
      "As holder of the Valyrian Steel Blade you choose which orders no house may place this round: Defense, March +1, or none.",
    ),
  }),
  "messenger-raven": () => ({
    title: t("The top wildling card"),
    text: t(
      "You looked at the top card of the wildling deck. Keep it on top, so it comes next, or put it at the bottom.",
    ),
  }),
  "highest-bidder": () => ({
    title: t("Break the tie: who is the highest bidder?"),
    text: t(
      "Several houses bid the most against the wildlings. As holder of the Iron Throne you choose which of them counts as the highest bidder.",
    ),
  }),
  "lowest-bidder": () => ({
    title: t("Break the tie: who is the lowest bidder?"),
    text: t(
      "Several houses bid the least against the wildlings. As holder of the Iron Throne you choose which of them counts as the lowest bidder.",
    ),
  }),
  "preemptive-raid": () => ({
    title: t("Preemptive Raid: choose your loss"),
    text: t(
      "The wildlings won and you bid the least. Either destroy two of your units, or drop two places on the influence track where you stand highest.",
    ),
  }),
  "a-king-beyond-the-wall": () => ({
    title: t("A King Beyond the Wall: choose a track"),
    text: t("The wildling card moves your house on an influence track. Choose which track."),
  }),
  "mammoth-riders": () => ({
    title: t("Mammoth Riders: take back a card"),
    text: t(
      "You bid the most: you may take one house card from your discard pile back into your hand.",
    ),
  }),
  "massing-on-the-milkwater": () => ({
    title: t("Massing on the Milkwater: discard a card"),
    text: t("The wildling card makes you discard one of your house cards. Choose which."),
  }),
  "the-horde-descends": () => ({
    title: t("The Horde Descends: choose an area"),
    text: t("Pick the castle or stronghold area where the wildling card's effect applies."),
  }),
  "crow-killers": () => ({
    title: t("Crow Killers"),
    text: t("The wildling card changes your knights or footmen. Pick the units."),
  }),
  retreat: () => ({
    title: t("Retreat"),
    text: t(
      "The army lost the combat. Choose where the survivors retreat; they are routed until the end of the round.",
    ),
  }),
  casualties: () => ({
    title: t("Casualties"),
    text: t(
      "Your army lost the combat: the winner's swords beyond your fortifications destroy that many of your units. Pick which ones.",
    ),
  }),
  "supply-on-retreat": () => ({
    title: t("Too many units to retreat"),
    text: t(
      "Your supply does not allow the retreating army in its new area. Pick the units you lose.",
    ),
  }),
  "supply-on-return": () => ({
    title: t("Too many units to return"),
    text: t(
      "Your army won but may not move in: it goes back to the area it marched from, where your supply does not allow it. Pick the units you lose.",
    ),
  }),
};

// The phase of a decision asked by one of ASKED_BY's reasons (else the kind's phase).
const ASKED_IN = {
  "a-throne-of-blades": WESTEROS,
  "dark-wings-dark-words": WESTEROS,
  "put-to-the-sword": WESTEROS,
  "messenger-raven": PLANNING,
  "highest-bidder": WILDLINGS,
  "lowest-bidder": WILDLINGS,
  "preemptive-raid": WILDLINGS,
  "a-king-beyond-the-wall": WILDLINGS,
  "mammoth-riders": WILDLINGS,
  "massing-on-the-milkwater": WILDLINGS,
  "the-horde-descends": WILDLINGS,
  "crow-killers": WILDLINGS,
  "valyrian-steel-blade": COMBAT,
  retreat: COMBAT,
  casualties: COMBAT,
  "supply-on-retreat": COMBAT,
  "supply-on-return": COMBAT,
};

// Reasons that are combat steps or rules rather than content names.
const REASON_NAMES = {
  supply: () => t("Supply"),
  retreat: () => t("Retreat"),
  "no-retreat": () => t("No retreat possible"),
  casualties: () => t("Casualties"),
  "routed-units-and-siege-engines": () => t("Routed units and siege engines"),
  "supply-on-retreat": () => t("Supply after a retreat"),
  "supply-on-return": () => t("Supply after a return"),
  "messenger-raven": () => t("Messenger Raven"),
  "support-neutral-attack": () => t("Support against a neutral force"),
  "highest-bidder": () => t("Wildlings attack"),
  "lowest-bidder": () => t("Wildlings attack"),
};

/** An engine reason without its rule number: "Crow Killers (7.3.3)" -> "Crow Killers". */
export function reasonKey(reason) {
  return String(reason || "")
    .replace(/\s*\((?:RULES\.md\s*)?[0-9][0-9.]*\)\s*$/, "")
    .replace(/^[0-9][0-9.]*\s*/, "")
    .trim();
}

/** A reason as a lookup key: "Dark Wings, Dark Words" -> "dark-wings-dark-words". */
function slug(key) {
  return key
    .toLowerCase()
    .replace(/[^a-z0-9+]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** A reason in words: a card's name, or the rule or card that asks, never a rule number. */
export function reasonLabel(reason) {
  const key = reasonKey(reason);
  if (!key) return "";
  if (REASON_NAMES[slug(key)]) return REASON_NAMES[slug(key)]();
  const plugin = pluginReason(slug(key));
  if (plugin && plugin.name) return plugin.name();
  if (/^[a-z0-9-]+$/.test(key)) return anyCardName(key);
  return tc(key);
}

/** Title, description and phase of `prompt` ({kind, data}); never empty, never a rule number. */
export function promptText(prompt) {
  const kind = prompt && prompt.kind;
  const data = (prompt && prompt.data) || {};
  const base = (PROMPTS[kind] ? PROMPTS[kind]() : pluginTitle(kind)) || {
    phase: pluginPhase(kind) || t("Decision"),
    title: prettify(kind || ""),
    text: t("Make a choice."),
  };
  const key = reasonKey(data.reason);
  const asked = /^retreat/.test(key) ? "retreat" : slug(key);
  if (ASKED_BY[asked]) {
    const phase = ASKED_IN[asked] ? ASKED_IN[asked]() : base.phase;
    return { ...base, phase, ...ASKED_BY[asked]() };
  }
  const plugin = pluginReason(asked);
  if (plugin && plugin.asks) {
    return { ...base, phase: plugin.phase ? plugin.phase() : base.phase, ...plugin.asks() };
  }
  if (kind === "choose_option" && key && westerosCard(key).text) {
    return {
      ...base,
      phase: WESTEROS(),
      title: t("{card}: your choice", { card: anyCardName(key) }),
      text: tc(westerosCard(key).text),
    };
  }
  if (key && isHouseCard(key)) {
    return {
      ...base,
      phase: COMBAT(),
      title: t("{card}: its ability", { card: anyCardName(key) }),
      text: tc(houseCard(key).text),
    };
  }
  return base;
}

/** Why a mustering area offers nothing to recruit. */
export function nothingToMuster() {
  return t(
    "Nothing can be recruited here: no unit fits the points left, your supply limit allows no bigger army, or none of your units are left to place.",
  );
}

// The phase an event belongs to (for the top bar while others decide).
const EVENT_PHASES = {
  westeros_revealed: WESTEROS,
  westeros_card: WESTEROS,
  clash_of_kings: WESTEROS,
  bids: WESTEROS,
  supply: WESTEROS,
  muster_done: WESTEROS,
  track: WESTEROS,
  restriction: WESTEROS,
  power_gained: WESTEROS,
  winter_is_coming: WESTEROS,
  wildling_attack: WILDLINGS,
  committed: PLANNING, // also a combat's house cards: see phaseFromLog
  orders_revealed: PLANNING,
  raven_looked: PLANNING,
  raven_replaced: PLANNING,
  raven_unused: PLANNING,
  order_removed: ACTION,
  raid: ACTION,
  march: ACTION,
  moved_in: ACTION,
  support_declared: COMBAT,
  combat: COMBAT,
  initial_strength: COMBAT,
  house_cards_revealed: COMBAT,
  combat_won: COMBAT,
  combat_over: ACTION,
  consolidate_power: ACTION,
  consolidate_muster: ACTION,
};

/** Whether the phase hint `phase` (an event kind) is one of the Action phase (5). */
function inAction(phase) {
  return EVENT_PHASES[phase] === ACTION || EVENT_PHASES[phase] === COMBAT;
}

/** The phase the newest of `entries` (log events) belongs to, else `previous`. */
export function phaseFromLog(entries, previous) {
  let phase = previous || null;
  for (const entry of entries || []) {
    if (!entry || typeof entry !== "object") continue;
    if (entry.kind === "round") phase = entry.round === 1 ? "planning" : "westeros";
    else if (entry.kind === "committed" && inAction(phase)) continue; // house cards (5.4.3)
    else if (EVENT_PHASES[entry.kind]) phase = entry.kind;
  }
  return phase;
}

/** The top bar's phase label: never blank. `hint` comes from phaseFromLog. */
export function phaseLabel(view, hint) {
  if (view && view.winner) return t("Game over");
  if (view && view.prompt) return promptText(view.prompt).phase;
  if (view && view.combat) return COMBAT();
  if (hint === "planning") return PLANNING();
  if (hint === "westeros") return WESTEROS();
  if (hint && EVENT_PHASES[hint]) return EVENT_PHASES[hint]();
  return view && view.round === 1 ? PLANNING() : t("Round in progress");
}
