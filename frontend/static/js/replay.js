// The replay page: fetches one step at a time from the server (which re-runs the engine from the
// game's log and filters it for the viewer) and draws it with the board's own renderers.
// Keys: ← → one action, Page Up / Page Down one round, Home / End the first / last step.
import { anyCardName } from "./content.js";
import { fill, h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { optionText } from "./log.js";
import { bootBoard } from "./boot.js";
import { announce } from "./map.js";
import { chatLine } from "./online/chat.js";
import {
  appendLog,
  houseChip,
  renderAreaInfo,
  renderCombat,
  renderHand,
  renderHouses,
  renderTopbar,
  renderTracks,
  renderWesteros,
} from "./panels.js";

/** A short description of an action the viewer may see (its own, or any in the full view). */
function actionText(action) {
  if (!action) return "";
  if (action.kind === "place_orders")
    return tn("placed {n} order", "placed {n} orders", (action.orders || []).length);
  if (action.kind === "bid") return t("bid {amount}", { amount: action.amount });
  if (action.kind === "choose") return t("chose {option}", { option: optionText(action.option) });
  return t("acted");
}

function topCard(deck) {
  return deck && deck.length ? anyCardName(deck[0]) : "";
}

class Replay {
  constructor() {
    const body = document.body;
    this.gameId = body.dataset.game;
    this.house = body.dataset.house || "";
    this.full = body.dataset.full === "true";
    this.stepsUrl = body.dataset.steps;
    this.message = null;
    this.inspected = null;
    this.loading = null;
    this.el = {
      tracks: document.getElementById("tracks"),
      houses: document.getElementById("houses"),
      hand: document.getElementById("hand"),
      areaInfo: document.getElementById("area-info"),
      westeros: document.getElementById("westeros"),
      combat: document.getElementById("combat"),
      secrets: document.getElementById("secrets"),
      log: document.getElementById("log"),
      topbar: document.getElementById("topbar"),
      status: document.getElementById("replay-status"),
      step: document.getElementById("replay-step"),
      round: document.getElementById("replay-round"),
      chat: document.getElementById("replay-chat"),
      chatLines: document.getElementById("replay-chat-lines"),
    };
  }

  async start() {
    this.map = await bootBoard((id) => {
      this.inspected = id;
      this.drawAreaInfo();
    });
    this.bind();
    const wanted = /step=(\d+)/.exec(location.hash);
    await this.go(wanted ? Number(wanted[1]) : 0);
  }

  // ------------------------------------------------------------------ moving
  async go(seq) {
    const total = this.message ? this.message.total : Infinity;
    const target = Math.max(0, Math.min(seq, total));
    if (this.message && target === this.message.seq) return;
    const query = this.house ? `?house=${encodeURIComponent(this.house)}` : "";
    const request = fetch(`${this.stepsUrl}${target}${query}`, { credentials: "same-origin" });
    this.loading = request;
    document.body.dataset.loading = "true";
    let message;
    try {
      const response = await request;
      message = await response.json();
      if (!response.ok) throw new Error(message.error || String(response.status));
    } catch (error) {
      if (this.loading !== request) return;
      this.loading = null;
      delete document.body.dataset.loading;
      fill(this.el.status, h("span", { class: "replay-error", role: "alert" }, String(error.message || error)));
      return;
    }
    if (this.loading !== request) return;
    this.loading = null;
    delete document.body.dataset.loading;
    this.show(message);
  }

  roundStart(offset) {
    const m = this.message;
    if (!m) return 0;
    const starts = m.rounds.map(([, first]) => first);
    let index = 0;
    for (let i = 0; i < starts.length; i++) if (starts[i] <= m.seq) index = i;
    if (offset < 0 && starts[index] < m.seq) return starts[index];
    const next = Math.max(0, Math.min(starts.length - 1, index + offset));
    return offset > 0 && next === index ? m.total : starts[next];
  }

  /** The step and map buttons are served disabled, so that a click before the replay has
   * loaded is not lost: the map's work from here on, the steps' once a step is shown. */
  bind() {
    const on = (id, fn) => document.getElementById(id)?.addEventListener("click", fn);
    const at = () => (this.message ? this.message.seq : 0);
    on("replay-first", () => this.go(0));
    on("replay-prev", () => this.go(at() - 1));
    on("replay-next", () => this.go(at() + 1));
    on("replay-last", () => this.go(this.message ? this.message.total : 0));
    on("replay-prev-round", () => this.go(this.roundStart(-1)));
    on("replay-next-round", () => this.go(this.roundStart(1)));
    on("zoom-in", () => this.map.zoomBy(1));
    on("zoom-out", () => this.map.zoomBy(-1));
    on("zoom-fit", () => this.map.setZoom("fit"));
    for (const id of ["zoom-in", "zoom-out", "zoom-fit"]) document.getElementById(id).disabled = false;
    this.el.step.addEventListener("change", () => this.go(Number(this.el.step.value)));
    this.el.round.addEventListener("change", () => this.go(Number(this.el.round.value)));
    document.addEventListener("keydown", (event) => {
      if (event.target.matches?.("input, textarea, select")) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const moves = {
        ArrowLeft: () => at() - 1,
        ArrowRight: () => at() + 1,
        PageUp: () => this.roundStart(-1),
        PageDown: () => this.roundStart(1),
        Home: () => 0,
        End: () => (this.message ? this.message.total : 0),
      };
      const move = moves[event.key];
      if (!move) return;
      event.preventDefault();
      this.go(move());
    });
  }

  // ------------------------------------------------------------------ drawing
  mapModel(message, controllers) {
    const view = message.view;
    const orders = { ...view.orders };
    for (const commit of message.secrets?.commitments || []) {
      if (commit.action.kind !== "place_orders") continue;
      for (const [id, token] of commit.action.orders) orders[id] = [commit.house, token, true];
    }
    return {
      controllers,
      units: view.units,
      orders,
      hidden: {},
      power_tokens: view.power_tokens,
      garrisons: view.garrisons,
      neutral: view.neutral_forces,
      unit_strength: view.unit_strength || {},
      changed_areas: view.changed_areas || {},
      ext: view.ext || {},
    };
  }

  show(message) {
    this.message = message;
    const view = message.view;
    const controllers = view.control;
    this.map.render(this.mapModel(message, controllers));
    renderTracks(this.el.tracks, view);
    renderHouses(this.el.houses, view);
    renderHand(this.el.hand, view);
    renderWesteros(this.el.westeros, view);
    renderCombat(this.el.combat, view);
    renderTopbar(this.el.topbar, view, "");
    this.drawAreaInfo(controllers);
    this.drawSecrets(message);
    this.drawChat(message.chat || []);
    this.el.log.replaceChildren();
    appendLog(this.el.log, message.log);
    if (!this.el.log.children.length)
      this.el.log.append(h("li", { class: "log-entry muted" }, t("Nothing to show in this step.")));
    this.drawControls(message);
    document.body.dataset.round = String(view.round);
    document.body.dataset.step = String(message.seq);
    history.replaceState(null, "", `#step=${message.seq}`);
  }

  drawControls(message) {
    const { seq, total } = message;
    this.el.step.max = String(total);
    this.el.step.value = String(seq);
    const options = message.rounds.map(([round, first]) =>
      h("option", { value: first }, t("Round {round}", { round })),
    );
    fill(this.el.round, options);
    let current = message.rounds[0]?.[1] ?? 0;
    for (const [, first] of message.rounds) if (first <= seq) current = first;
    this.el.round.value = String(current);
    const actor = message.actor;
    const what = actor
      ? [
          houseChip(actor.house),
          " ",
          actor.action ? actionText(actor.action) : t("acted"),
        ]
      : t("The game begins.");
    fill(
      this.el.status,
      h("strong", {}, t("Step {seq} of {total}", { seq, total })),
      h("br"),
      what,
    );
    for (const [id, disabled] of [
      ["replay-first", seq === 0],
      ["replay-prev", seq === 0],
      ["replay-prev-round", seq === 0],
      ["replay-next", seq === total],
      ["replay-next-round", seq === total],
      ["replay-last", seq === total],
    ]) {
      document.getElementById(id).disabled = disabled;
    }
    announce(t("Step {seq} of {total}", { seq, total }));
  }

  drawSecrets(message) {
    const secrets = message.secrets;
    const root = this.el.secrets;
    if (!secrets) {
      root.hidden = true;
      return;
    }
    root.hidden = false;
    const rows = [];
    for (const commit of secrets.commitments) {
      rows.push(h("dt", {}, houseChip(commit.house)), h("dd", {}, actionText(commit.action)));
    }
    for (const [house, prompt] of Object.entries(secrets.prompts)) {
      rows.push(
        h("dt", {}, houseChip(house)),
        h("dd", {}, t("is asked: {kind}", { kind: prompt.kind })),
      );
    }
    const decks = secrets.decks;
    const tops = decks.westeros.map(topCard).filter(Boolean);
    rows.push(
      h("dt", {}, t("Next Westeros cards")),
      h("dd", {}, tops.length ? tops.join(" · ") : t("none")),
      h("dt", {}, t("Top wildling card")),
      h("dd", {}, topCard(decks.wildling) || t("none")),
    );
    fill(
      root,
      h("h2", { class: "panel-title" }, t("Hidden at this moment")),
      h("dl", { "data-testid": "secret-list" }, rows),
    );
  }

  /** The chat written up to this step's round, as the server filtered it for this reader
   * (public lines; ravens only to their two houses). Put in as text, never as HTML. */
  drawChat(lines) {
    this.el.chat.hidden = !lines.length;
    this.el.chatLines.replaceChildren(...lines.map(chatLine));
  }

  drawAreaInfo(controllers = null) {
    if (!this.message || !this.inspected) return;
    const view = this.message.view;
    renderAreaInfo(this.el.areaInfo, view, this.inspected, controllers || view.control);
  }
}

const replay = new Replay();
replay.start().catch((error) => {
  document.body.prepend(
    h(
      "p",
      { class: "fatal", role: "alert" },
      t("The replay could not start: {error}", { error: String(error) }),
    ),
  );
});
