// Log entries, option labels and reasons in plain words. The server narrates every event in
// the page's language (`text` of each log entry, docs/protocol.md); this module only shows it.
import { anyCardName, areaName, houseName, optionLabel, prettify, unitName } from "./content.js";
import { listed, t } from "./i18n.js";
import { reasonLabel } from "./prompt-titles.js";
import { pluginOption, pluginOptionWords } from "./registry.js";

/** "2 Footmen, 1 Knight"-style summary of unit types. */
export function unitSummary(types) {
  const counts = new Map();
  for (const type of types) counts.set(type, (counts.get(type) || 0) + 1);
  return listed([...counts].map(([type, n]) => `${n} ${unitName(type, n)}`));
}

/** A reason given by the engine, in words (prompt-titles.js: never a rule number). */
export function reasonText(reason) {
  return reasonLabel(reason);
}

const RESTRICTIONS = {
  defense: () => t("Defense"),
  march: () => t("March"),
  "march+1": () => t("March +1"),
  support: () => t("Support"),
  raid: () => t("Raid"),
  consolidate_power: () => t("Consolidate Power"),
};

/** The name of a restricted order kind ("march+1" -> "March +1"). */
export function restrictionName(key) {
  return RESTRICTIONS[key] ? RESTRICTIONS[key]() : prettify(key);
}

const OPTIONS = {
  use: () => t("Use it"),
  pass: () => t("Pass"),
  yes: () => t("Yes"),
  no: () => t("No"),
  none: () => t("None"),
  nothing: () => t("Nothing"),
  done: () => t("Done"),
  supply: () => t("Supply"),
  mustering: () => t("Mustering"),
  clash_of_kings: () => t("Clash of Kings"),
  game_of_thrones: () => t("Game of Thrones"),
  no_defense: () => t("No Defense orders"),
  "no_march+1": () => t("No March +1 orders"),
  look_at_wildling_card: () => t("Look at the top wildling card"),
  keep_on_top: () => t("Keep it on top"),
  move_to_bottom: () => t("Put it at the bottom"),
  destroy_units: () => t("Destroy 2 units"),
  drop_track: () => t("Drop 2 places on your highest track"),
  attacker: () => t("The attacker"),
  defender: () => t("The defender"),
  iron_throne: () => t("Iron Throne"),
  fiefdoms: () => t("Fiefdoms"),
  kings_court: () => t("King's Court"),
};

/** The label of a choose_option option: known words (the host's, then plugins', also those
 * a plugin builds from the prompt's `data`), houses, tracks, cards, areas. */
export function optionText(option, data = {}) {
  if (OPTIONS[option]) return OPTIONS[option]();
  const fromPlugin =
    pluginOption(option) || optionLabel(option) || pluginOptionWords(option, data);
  if (fromPlugin) return fromPlugin;
  return anyCardName(option) !== prettify(option) ? anyCardName(option) : houseOrArea(option);
}

function houseOrArea(option) {
  const house = houseName(option);
  if (house !== prettify(option)) return house;
  const area = areaName(option);
  return area || prettify(option);
}

/** One log entry (the server's sentence, or a plain string) as text. */
export function describe(entry) {
  if (typeof entry === "string") return entry;
  if (!entry || typeof entry !== "object") return "";
  if (typeof entry.text === "string" && entry.text) return entry.text;
  return prettify(entry.kind || "");
}

/** Events that are noise in the log (shown elsewhere on the board). */
export function quiet(entry) {
  return Boolean(entry) && (entry.kind === "committed" || entry.kind === "power");
}
