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
//
// Every call into a plugin's parts goes through `guarded` (issue 35 finding 18): a part that
// throws is logged once on the console with the plugin's name, the host's own words or drawing
// stand in for it, and a small notice appears only where that plugin draws (its screen, its
// panel, or the map for `decorate`); the other panels and plugins are drawn as usual.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const plugins = new Map();
const reported = new Set();

/** Log the first failure of plugin `name`'s part `part` on the console, naming the plugin. */
function report(name, part, error) {
  const key = `${name}\u0000${part}`;
  if (reported.has(key)) return;
  reported.add(key);
  console.error(`plugin ${name}: its ${part} failed and is skipped`, error);
}

/** `fn(...args)` of plugin `name` (its part `part`); if it throws, `fallback(error)`. */
function guarded(name, part, fn, fallback, ...args) {
  try {
    return fn(...args);
  } catch (error) {
    report(name, part, error);
    return fallback(error);
  }
}

const none = () => null;

/** A plugin's part `fn` wrapped so that it never throws (null instead). */
function safe(name, part, fn) {
  return typeof fn === "function" ? (...args) => guarded(name, part, fn, none, ...args) : fn;
}

const safeCopies = new WeakMap();

/** `parts` (an object of functions and values) with every function made safe (made once:
 * the map asks for an area kind's parts many times a render). */
function safeParts(name, section, parts) {
  if (!parts || typeof parts !== "object") return parts;
  let out = safeCopies.get(parts);
  if (!out) {
    out = {};
    for (const [key, value] of Object.entries(parts)) {
      out[key] = safe(name, `${section}.${key}`, value);
    }
    safeCopies.set(parts, out);
  }
  return out;
}

/** The small notice shown where plugin `name` draws when its code failed there. */
function notice(name, words) {
  return h(
    "p",
    { class: "plugin-fault-note", role: "status", "data-testid": `plugin-fault-${name}` },
    words,
  );
}

/** Add a plugin's client parts; a second registration under the same name is refused. */
export function registerPlugin(name, parts) {
  if (plugins.has(name)) throw new Error(`plugin ${name} is already registered`);
  plugins.set(name, parts || {});
}

function lookup(section, key) {
  for (const [name, parts] of plugins) {
    const table = parts[section];
    if (table && Object.prototype.hasOwnProperty.call(table, key)) return [name, table[key]];
  }
  return [null, undefined];
}

/** The screen a plugin registered for prompt kind `kind`, if any. A screen that throws is
 * replaced by a notice naming the plugin in the decision panel. */
export function pluginPrompt(kind) {
  const [name, render] = lookup("prompts", kind);
  if (typeof render !== "function") return render;
  const failed = (ctx) => {
    const words = t(
      "The {plugin} plugin could not show this decision. Update or disable the plugin.",
      { plugin: name },
    );
    ctx.paint(notice(name, words));
  };
  return (ctx) => guarded(name, `screen for ${kind}`, render, () => failed(ctx), ctx);
}

/** The result of a label function a plugin registered under `section`[`key`], or null. */
function label(section, key, ...args) {
  const [name, fn] = lookup(section, key);
  return typeof fn === "function" ? guarded(name, `${section}.${key}`, fn, none, ...args) : null;
}

/** The top-bar label a plugin registered for prompt kind `kind`, or "". */
export function pluginPhase(kind) {
  return label("phases", kind) || "";
}

/** The plain words ({phase, title, text}) a plugin registered for prompt kind `kind`, or
 * null. */
export function pluginTitle(kind) {
  return label("titles", kind);
}

/** The label a plugin registered for option `option`, or null. */
export function pluginOption(option) {
  return label("options", option);
}

/** The first answer of the plugins' `section` functions (optionWords, seatLabel), or null. */
function firstAnswer(section, ...args) {
  for (const [name, parts] of plugins) {
    const fn = parts[section];
    const answer = typeof fn === "function" ? guarded(name, section, fn, none, ...args) : null;
    if (answer) return answer;
  }
  return null;
}

/** The label a plugin's `optionWords` gives option `option` of a prompt with `data`, or
 * null. */
export function pluginOptionWords(option, data) {
  return firstAnswer("optionWords", option, data);
}

/** The name a plugin registered for order type `type`, or null. */
export function pluginOrderType(type) {
  return label("orderTypes", type);
}

/** The name a plugin registered for order token `id`, or null. */
export function pluginToken(id) {
  return label("tokens", id);
}

/** The words ({name, phase, asks}) a plugin registered for reason slug `slug`, or null. */
export function pluginReason(slug) {
  const [name, words] = lookup("reasons", slug);
  return words ? safeParts(name, `reasons.${slug}`, words) : null;
}

/** How the map draws areas of kind `kind` ({marker, fillShape}); {} for the host's kinds. */
export function areaKind(kind) {
  const [name, drawing] = lookup("areaKinds", kind);
  return drawing ? safeParts(name, `areaKinds.${kind}`, drawing) : {};
}

/** Let every plugin add its pieces to the map after a render; one that throws gets a notice
 * on the map pane (until it draws again) and the others still draw. */
export function decorateMap(map, model) {
  for (const [name, parts] of plugins) {
    if (typeof parts.decorate !== "function") continue;
    let failed = false;
    guarded(name, "decorate", parts.decorate, () => (failed = true), map, model);
    const shown = map.pane?.querySelector(`[data-testid="plugin-fault-${name}"]`);
    if (failed && !shown && map.pane) {
      const words = t(
        "The {plugin} plugin could not draw its pieces on the map. Update or disable it.",
        { plugin: name },
      );
      map.pane.append(notice(name, words));
    } else if (!failed && shown) {
      shown.remove();
    }
  }
}

/** [key, render] of every side panel the plugins registered, in registration order; a panel
 * whose render throws shows a notice naming its plugin instead. */
export function pluginPanels() {
  const out = [];
  for (const [name, parts] of plugins) {
    for (const [key, render] of Object.entries(parts.panels || {})) {
      const failed = (root) => {
        const words = t(
          "The {plugin} plugin could not show this panel. Update or disable the plugin.",
          { plugin: name },
        );
        root.hidden = false;
        root.replaceChildren(notice(name, words));
      };
      const draw = (root, ...args) =>
        guarded(name, `panel ${key}`, render, () => failed(root), root, ...args);
      out.push([key, draw]);
    }
  }
  return out;
}

/** The seat words a plugin's `seatLabel` gives `house` (a house without a seat) in `view`, or
 * null. */
export function pluginSeatLabel(house, view) {
  return firstAnswer("seatLabel", house, view);
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
