// What plugins add to the board in the browser (docs/plugins.md, register_client_scripts).
// The board and replay pages import the client scripts of the plugins that are part of the
// game (`content.scripts`); each script calls `registerPlugin` once:
//
//   import { registerPlugin } from "/static/js/registry.js";
//   registerPlugin("my_plugin", {
//     prompts: { my_prompt_kind: (ctx) => { ... } },      // a screen per prompt kind
//     phases: { my_prompt_kind: () => t("Action: my thing") }, // top-bar label per prompt kind
//     titles: { my_prompt_kind: () => ({ phase, title, text }) }, // plain words per prompt kind
//     options: { my_option: () => t("Do my thing") },        // choose_option labels
//     optionWords: (option, data) => t("…") or null,         // labels of options built at
//                                                            // run time (`data`: the prompt's)
//     orderTypes: { my_type: () => t("My order") },          // names of new order types
//     tokens: { "my-token": () => t("My order −1") },        // names of single order tokens
//     areaKinds: { my_kind: { marker: true, fillShape(area, map) { ... }, label: () => t("…") } },
//                                                            // map drawing and the area's label
//     reasons: { "my-reason": { name: () => t("…"),          // a reason the plugin's rules give
//                               phase: () => t("Combat"),    // (slug of the engine's reason):
//                               asks: () => ({ title, text }) } }, // its name, and the words of
//                                                            // a decision it asks for
//     decorate(map, model) { ... },                          // extra pieces after each render
//     panels: { my_panel: (root, view, ctx) => { ... } },    // a side panel drawn with every
//                                                            // view (`root.hidden` to hide it;
//                                                            // `ctx`: the open decision or null)
//     seatLabel: (house, view) => t("…") or null,            // the houses panel's seat words
//                                                            // for a house without a seat
//   });
//
// The host never names a plugin's prompt kinds, options or area kinds itself.

const plugins = new Map();

/** Add a plugin's client parts; a second registration under the same name is refused. */
export function registerPlugin(name, parts) {
  if (plugins.has(name)) throw new Error(`plugin ${name} is already registered`);
  plugins.set(name, parts || {});
}

function lookup(section, key) {
  for (const parts of plugins.values()) {
    const table = parts[section];
    if (table && Object.prototype.hasOwnProperty.call(table, key)) return table[key];
  }
  return undefined;
}

/** The screen a plugin registered for prompt kind `kind`, if any. */
export function pluginPrompt(kind) {
  return lookup("prompts", kind);
}

/** The top-bar label a plugin registered for prompt kind `kind`, or "". */
export function pluginPhase(kind) {
  const label = lookup("phases", kind);
  return label ? label() : "";
}

/** The plain words ({phase, title, text}) a plugin registered for prompt kind `kind`, or
 * null. */
export function pluginTitle(kind) {
  const words = lookup("titles", kind);
  return words ? words() : null;
}

/** The label a plugin registered for option `option`, or null. */
export function pluginOption(option) {
  const label = lookup("options", option);
  return label ? label() : null;
}

/** The label a plugin's `optionWords` gives option `option` of a prompt with `data`, or
 * null. */
export function pluginOptionWords(option, data) {
  for (const parts of plugins.values()) {
    const label = typeof parts.optionWords === "function" ? parts.optionWords(option, data) : null;
    if (label) return label;
  }
  return null;
}

/** The name a plugin registered for order type `type`, or null. */
export function pluginOrderType(type) {
  const label = lookup("orderTypes", type);
  return label ? label() : null;
}

/** The name a plugin registered for order token `id`, or null. */
export function pluginToken(id) {
  const label = lookup("tokens", id);
  return label ? label() : null;
}

/** The words ({name, phase, asks}) a plugin registered for reason slug `slug`, or null. */
export function pluginReason(slug) {
  return lookup("reasons", slug) || null;
}

/** How the map draws areas of kind `kind` ({marker, fillShape}); {} for the host's kinds. */
export function areaKind(kind) {
  return lookup("areaKinds", kind) || {};
}

/** Let every plugin add its pieces to the map after a render. */
export function decorateMap(map, model) {
  for (const parts of plugins.values()) {
    if (typeof parts.decorate === "function") parts.decorate(map, model);
  }
}

/** [key, render] of every side panel the plugins registered, in registration order. */
export function pluginPanels() {
  const out = [];
  for (const parts of plugins.values()) out.push(...Object.entries(parts.panels || {}));
  return out;
}

/** The seat words a plugin's `seatLabel` gives `house` (a house without a seat) in `view`, or
 * null. */
export function pluginSeatLabel(house, view) {
  for (const parts of plugins.values()) {
    const label = typeof parts.seatLabel === "function" ? parts.seatLabel(house, view) : null;
    if (label) return label;
  }
  return null;
}

/** The names of the plugins registered so far (for tests and the help panel). */
export function registeredPlugins() {
  return [...plugins.keys()];
}

/** Import the client scripts `urls` (each registers itself); a script that fails is logged
 * and skipped, so the board still works without it. */
export async function loadPlugins(urls) {
  for (const url of urls || []) {
    try {
      await import(url);
    } catch (error) {
      console.error(`plugin script ${url} failed to load`, error);
    }
  }
}
