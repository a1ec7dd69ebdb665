// Names and facts about the game's content (areas, houses, cards, tokens), from the `content`
// JSON the board page embeds. Every lookup has a fallback, so the board still works (with
// plainer labels) when a plugin adds something the page was not told about.
import { t, tc } from "./i18n.js";
import { pluginOrderType, pluginToken } from "./registry.js";

let content = {};

/** Remember the content description embedded in the page. */
export function setContent(data) {
  content = data || {};
}

/** The raw content description. */
export function rawContent() {
  return content;
}

/** "kings-landing" -> "Kings Landing" (last resort for unknown ids). */
export function prettify(id) {
  return String(id)
    .replace(/[-_]+/g, " ")
    .replace(/\b\w/g, (c) => c.toUpperCase());
}

function section(name) {
  return content[name] || {};
}

/** Facts about an area: name, kind, domain, castle (0-2), crowns, barrels, home_of. */
export function area(id) {
  return section("areas")[id] || null;
}

/** The domain ("land" or "sea") of area `id`; `fallback` when the content does not say. */
export function domainOf(id, fallback = "land") {
  const found = area(id);
  return (found && found.domain) || fallback;
}

/** Is `id` an area of this game (a plugin's areas disappear when it is off)? */
export function hasArea(id) {
  const areas = section("areas");
  return Object.keys(areas).length === 0 || Object.prototype.hasOwnProperty.call(areas, id);
}

/** The translated name of an area. */
export function areaName(id) {
  if (!id) return "";
  const found = area(id);
  if (found && found.name) return tc(found.name);
  const node = document.getElementById(`area-${id}`);
  const title = node && node.querySelector("title");
  return title ? tc(title.textContent) : prettify(id);
}

/** The translated name of a house. */
export function houseName(id) {
  if (!id) return "";
  const found = section("houses")[id];
  return found && found.name ? tc(found.name) : prettify(id);
}

/** A house card: {name, house, strength, swords, fortifications, text}. */
export function houseCard(id) {
  const found = section("house_cards")[id];
  if (found) return found;
  return { id, name: prettify(id), house: "", strength: null, swords: 0, fortifications: 0 };
}

/** Is `id` the id of a house card? */
export function isHouseCard(id) {
  return Object.prototype.hasOwnProperty.call(section("house_cards"), id);
}

/** The translated name of a house card. */
export function cardName(id) {
  return tc(houseCard(id).name);
}

/** An order token: {type, bonus, star}; parsed from ids like "march+1*" when unknown. */
export function orderToken(id) {
  const found = section("order_tokens")[id];
  if (found) return found;
  const match = /^([a-z_]+)([+-]\d+)(\*)?/.exec(id || "");
  if (!match) return { type: "unknown", bonus: 0, star: false };
  return { type: match[1], bonus: Number(match[2]), star: Boolean(match[3]) };
}

const ORDER_TYPES = {
  march: () => t("March"),
  defense: () => t("Defense"),
  support: () => t("Support"),
  raid: () => t("Raid"),
  consolidate_power: () => t("Consolidate Power"),
};

/** "March +1" or "Support +0 ★" for an order token id. */
export function orderLabel(id) {
  const named = pluginToken(id);
  if (named) return named;
  const token = orderToken(id);
  const type = orderTypeName(token.type);
  const plain =
    token.type === "consolidate_power" ||
    token.type === "raid" ||
    (!ORDER_TYPES[token.type] && token.bonus === 0);
  const bonus = plain ? "" : ` ${signed(token.bonus)}`;
  return `${type}${bonus}${token.star ? " ★" : ""}`;
}

/** The translated name of an order type (a plugin's own types: registry.js `orderTypes`). */
export function orderTypeName(type) {
  if (ORDER_TYPES[type]) return ORDER_TYPES[type]();
  return pluginOrderType(type) || prettify(type);
}

/** Is order token `id` limited to some kinds of area (the content's `area_kinds`)? */
export function isLimitedToken(id) {
  return Boolean(section("order_tokens")[id]?.area_kinds?.length);
}

/** A number with its sign: +1, 0, -1. */
export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

const UNIT_NAMES = {
  footman: [() => t("Footman"), () => t("Footmen")],
  knight: [() => t("Knight"), () => t("Knights")],
  ship: [() => t("Ship"), () => t("Ships")],
  siege_engine: [() => t("Siege engine"), () => t("Siege engines")],
};

/** The translated name of a unit type (plural when `count` is not 1). */
export function unitName(type, count = 1) {
  const names = UNIT_NAMES[type];
  if (names) return names[count === 1 ? 0 : 1]();
  const found = section("unit_types")[type];
  return found && found.name ? tc(found.name) : prettify(type);
}

/** Facts about a unit type: {domain, strength, vs_castle, muster_cost}. */
export function unitType(type) {
  const found = section("unit_types")[type];
  if (found) return found;
  const defaults = {
    footman: { domain: "land", strength: 1, vs_castle: null, muster_cost: 1 },
    knight: { domain: "land", strength: 2, vs_castle: null, muster_cost: 2 },
    siege_engine: { domain: "land", strength: 0, vs_castle: 4, muster_cost: 2 },
    ship: { domain: "sea", strength: 1, vs_castle: null, muster_cost: 1 },
  };
  return defaults[type] || { domain: "land", strength: 0, vs_castle: null, muster_cost: 1 };
}

const TRACK_NAMES = {
  iron_throne: () => t("Iron Throne"),
  fiefdoms: () => t("Fiefdoms"),
  kings_court: () => t("King's Court"),
};

const DOMINANCE = {
  iron_throne: () => t("Iron Throne"),
  fiefdoms: () => t("Valyrian Steel Blade"),
  kings_court: () => t("Messenger Raven"),
};

/** The translated name of an influence track. */
export function trackName(id) {
  return TRACK_NAMES[id] ? TRACK_NAMES[id]() : prettify(id);
}

/** The dominance token of a track. */
export function dominanceName(id) {
  return DOMINANCE[id] ? DOMINANCE[id]() : prettify(id);
}

/** The three influence tracks in their rule order. */
export const TRACKS = ["iron_throne", "fiefdoms", "kings_court"];

/** A Westeros card: {name, deck, text, wildling_icon}. */
export function westerosCard(id) {
  return section("westeros_cards")[id] || { name: prettify(id), deck: 0, text: "" };
}

/** A wildling card: {name, text}. */
export function wildlingCard(id) {
  return section("wildling_cards")[id] || { name: prettify(id), text: "" };
}

/** Any card id (house, Westeros, wildling, a plugin's reference card) as a translated name. */
export function anyCardName(id) {
  if (isHouseCard(id)) return cardName(id);
  if (section("westeros_cards")[id]) return tc(westerosCard(id).name);
  if (section("wildling_cards")[id]) return tc(wildlingCard(id).name);
  const extra = section("reference_cards")[id];
  return extra && extra.name ? tc(extra.name) : prettify(id);
}

/** A plugin decision's option id as a translated label (the plugins' log labels), or null. */
export function optionLabel(option) {
  const label = section("option_labels")[option];
  return label ? tc(label) : null;
}

/** The seats: {house: "human" | "ai"}. */
export function seats() {
  return content.seats || {};
}
