// The one translation mechanism for scripts (gettext-style). English is the source language:
// `t("Place your orders")` looks the message up in the catalog served at /i18n/<lang>.json and
// falls back to the English text. Placeholders are written {name} and filled from `params`.
// Babel extracts every t("...") and tn("...", "...", n) call; never build a message id at run
// time except for content names (areas, houses, cards), which go through `tc`.

let catalog = {};
let pluralRules = new Intl.PluralRules("en");

/** Fill {name} placeholders of `text` from `params`. */
export function format(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) =>
    Object.prototype.hasOwnProperty.call(params, key) ? String(params[key]) : whole,
  );
}

function lookup(msgid) {
  const found = catalog[msgid];
  return typeof found === "string" && found ? found : null;
}

/** Translate a message written in English. */
export function t(msgid, params) {
  return format(lookup(msgid) ?? msgid, params);
}

/** Translate a message with a singular and a plural English form; `n` is also {n}. */
export function tn(singular, plural, n, params) {
  const all = { n, ...(params || {}) };
  const forms = catalog[singular];
  if (Array.isArray(forms) && forms.length) {
    const categories = pluralRules.resolvedOptions().pluralCategories;
    const order = ["zero", "one", "two", "few", "many", "other"].filter((c) =>
      categories.includes(c),
    );
    const index = Math.min(order.indexOf(pluralRules.select(n)), forms.length - 1);
    return format(forms[Math.max(0, index)], all);
  }
  return format(n === 1 ? singular : plural, all);
}

/** `items` as one list in the player's language ("A, B, C"; in Chinese "A、B、C"). */
export function listed(items) {
  // The separator between the items of a list shown in a sentence.
  return items.join(t(", "));
}

/** Translate content text (area, house and card names, card texts) registered by plugins. */
export function tc(text) {
  return text ? (lookup(text) ?? text) : "";
}

const fetched = new Map();

/** The messages of `lang` from the server ({} when they cannot be had). */
async function fetchMessages(lang) {
  try {
    const response = await fetch(`/i18n/${encodeURIComponent(lang)}.json`, {
      credentials: "same-origin",
    });
    if (!response.ok) return {};
    const data = await response.json();
    return data && typeof data.messages === "object" ? data.messages : data || {};
  } catch {
    return {};
  }
}

/** Load the catalog for `code` (the <html lang>); English needs none. Scripts of one page that
 * each ask for it share one fetch. */
export async function loadCatalog(code) {
  const lang = code || "en";
  try {
    pluralRules = new Intl.PluralRules(lang.replace("_", "-"));
  } catch {
    pluralRules = new Intl.PluralRules("en");
  }
  if (lang === "en") return;
  if (!fetched.has(lang)) fetched.set(lang, fetchMessages(lang));
  catalog = await fetched.get(lang);
}
