// The board page: connects the seat, keeps the latest view and draws everything from it.
import { houseName } from "./content.js";
import { fill, h } from "./dom.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";
import { bootBoard } from "./boot.js";
import { announce } from "./map.js";
import {
  appendLog,
  houseChip,
  lastCombat,
  renderAreaInfo,
  renderCombat,
  renderHand,
  renderHouses,
  renderTopbar,
  renderTracks,
  renderWesteros,
  roundResults,
} from "./panels.js";
import { phaseFromLog, phaseLabel } from "./prompt-titles.js";
import { renderPrompt } from "./prompts/index.js";
import { showPause } from "./paused.js";
import { pluginPanels } from "./registry.js";
import { Seat, seatUrl } from "./socket.js";


/** A take-back starts from the house's own commitment (4.1, 3.6.2, 5.4.3): its orders, bid or
 * card, as the screens keep them in their drafts. */
function draftOf(commitment) {
  if (!commitment) return {};
  if (commitment.kind === "place_orders") return { orders: Object.fromEntries(commitment.orders) };
  if (commitment.kind === "bid") return { amount: commitment.amount };
  if (commitment.kind === "choose") return { card: commitment.option };
  return {};
}

class Board {
  constructor() {
    const body = document.body;
    const parts = location.pathname.match(/\/games\/([^/]+)\/play\/([^/]+)/) || [];
    this.gameId = body.dataset.game || decodeURIComponent(parts[1] || "");
    this.house = body.dataset.house || decodeURIComponent(parts[2] || "");
    this.view = null;
    this.promptKey = null;
    this.draft = {};
    this.overlayState = {};
    this.secretOrders = null;
    this.changing = null; // the house whose committed decision the player reopened (4.1)
    this.sent = null; // the id of the action sent and not yet accepted or refused
    this.inspected = null;
    this.lastCombat = null;
    this.roundResults = null;
    this.ctx = null;
    this.el = {
      prompt: document.getElementById("prompt"),
      combat: document.getElementById("combat"),
      tracks: document.getElementById("tracks"),
      houses: document.getElementById("houses"),
      hand: document.getElementById("hand"),
      areaInfo: document.getElementById("area-info"),
      westeros: document.getElementById("westeros"),
      log: document.getElementById("log"),
      topbar: document.getElementById("topbar"),
      status: document.getElementById("connection"),
    };
  }

  async start() {
    this.map = await bootBoard((id) => {
      this.inspected = id;
      this.drawAreaInfo();
    });
    this.bindKeys();
    this.bindTools();
    this.seat = new Seat(seatUrl(this.gameId, this.house), {
      view: (message) => this.onView(message),
      error: (message) => relayed(message) || this.onError(message),
      accepted: (message) => this.onAccepted(message),
      gameOver: (message) => this.onGameOver(message),
      status: (status) => this.onStatus(status),
      other: (message) => relayed(message) || showPause(message),
    });
    // the page's other scripts (online/voice.js) send over this seat's socket too
    document.addEventListener("westeros:seat-send", (event) => this.seat.send(event.detail));
    this.seat.connect();
  }

  // ------------------------------------------------------------------ messages
  onStatus(status) {
    this.el.status.dataset.status = status;
    this.el.status.textContent =
      status === "open"
        ? t("connected")
        : status === "refused"
          ? t("This page belongs to an earlier start of the app: reopen the game from the app.")
          : t("reconnecting…");
    this.el.status.setAttribute("role", status === "refused" ? "alert" : "status");
  }

  onView(message) {
    const view = message.view;
    this.view = view;
    if (message.history) {
      this.el.log.replaceChildren();
      this.el.log.dataset.history = "1"; // the game's whole log is here: deal lines find their places
    }
    appendLog(this.el.log, message.log);
    this.lastCombat = lastCombat(message.log, message.history ? null : this.lastCombat);
    this.roundResults = roundResults(message.log, message.history ? null : this.roundResults);
    this.phaseHint = phaseFromLog(message.log, message.history ? null : this.phaseHint);
    if (
      this.secretOrders &&
      (Object.keys(view.orders).length || view.round !== this.secretOrders.round)
    ) {
      this.secretOrders = null;
    }
    if (this.changing && !this.takeBackOf(this.changing)) this.changing = null;
    const prompt = this.currentPrompt();
    const key = prompt
      ? JSON.stringify([view.round, this.promptHouse(), prompt.kind, prompt.data])
      : null;
    // The same question after another house's commitment is not an answer to the action sent:
    // it stays sending until `accepted` or an error. A new connection may have lost it.
    if (key !== this.promptKey || (this.sent !== null && message.history)) this.renewPrompt(key);
    else if (!prompt) this.showWaiting();
    this.drawBoard();
    document.body.dataset.round = String(view.round);
    document.body.dataset.prompt = prompt ? prompt.kind : "";
    document.body.dataset.stateId = String(message.state_id);
  }

  /** The question `key` (null: none) is shown afresh; the draft is kept if it is the same. */
  renewPrompt(key) {
    this.promptKey = key;
    this.sent = null;
    this.draft = key && this.draftKey === key ? this.draft : {};
    this.draftKey = key;
    this.overlayState = {};
    this.showPrompt();
  }

  /** The action sent was taken: a question that looks the same is a new one (say, the next
   * unit to place), asked afresh. */
  onAccepted(message) {
    if (this.sent === null || message.in_reply_to !== this.sent) return;
    this.renewPrompt(this.promptKey);
  }

  onError(message) {
    const box =
      this.el.prompt.querySelector(".prompt-error") ||
      h("p", { class: "prompt-note note-error prompt-error", role: "alert" });
    box.textContent = errorText(message);
    this.el.prompt.append(box);
    this.sent = null;
    this.el.prompt.classList.remove("is-sending");
    for (const button of this.el.prompt.querySelectorAll("button[data-was-enabled]")) {
      button.disabled = false;
      delete button.dataset.wasEnabled;
    }
    announce(box.textContent);
  }

  onGameOver(message) {
    const dialog = document.getElementById("game-over");
    fill(
      dialog.querySelector(".dialog-body"),
      h("h2", {}, t("{house} wins the game!", { house: houseName(message.winner) })),
      h(
        "ol",
        { class: "ranking" },
        (message.ranking || []).map((house) => h("li", {}, houseChip(house))),
      ),
    );
    if (!dialog.open) dialog.showModal();
  }

  // ------------------------------------------------------------------ drawing
  mapModel(controllers) {
    const view = this.view;
    const orders = { ...view.orders };
    const hidden = {};
    // Orders this seat placed and sees before the reveal: its own and those of the houses it
    // answers for (answering_for), then the draft being placed now.
    const placed = { ...(this.secretOrders ? this.secretOrders.placed : {}) };
    if (this.overlayState.orders) placed[this.promptHouse()] = this.overlayState.orders;
    for (const [house, mine] of Object.entries(placed))
      for (const [id, token] of Object.entries(mine)) orders[id] = [house, token, true];
    const planning = this.currentPrompt()?.kind === "place_orders" || Boolean(this.secretOrders);
    if (planning && !Object.keys(view.orders).length) {
      for (const [id, units] of Object.entries(view.units)) {
        const owner = units[0]?.[0];
        if (owner && !placed[owner] && owner !== this.house && !view.waiting_for.includes(owner))
          hidden[id] = owner;
      }
    }
    return {
      controllers,
      units: view.units,
      orders,
      hidden,
      power_tokens: view.power_tokens,
      garrisons: view.garrisons,
      neutral: view.neutral_forces,
      blocked: view.blocked,
      unit_strength: view.unit_strength || {},
      changed_areas: view.changed_areas || {},
      ext: view.ext || {},
    };
  }

  drawBoard() {
    const view = this.view;
    const controllers = this.view.control;
    this.map.render(this.mapModel(controllers));
    renderTracks(this.el.tracks, view);
    renderHouses(this.el.houses, view);
    renderHand(this.el.hand, view);
    renderWesteros(this.el.westeros, view);
    this.drawPluginPanels();
    renderCombat(this.el.combat, view, this.lastCombat, this.roundResults);
    this.drawAreaInfo(controllers);
    const phase = phaseLabel(view, this.phaseHint);
    renderTopbar(this.el.topbar, view, phase);
  }

  /** The side panels of the game's plugins (registry.js `panels`), after the Westeros panel;
   * each gets the open decision's context so its buttons may answer it. */
  drawPluginPanels() {
    let after = this.el.westeros;
    for (const [key, render] of pluginPanels()) {
      const id = `plugin-panel-${key}`;
      let root = document.getElementById(id);
      if (!root) {
        root = h("section", { class: "panel", id, "data-testid": id });
        after.after(root);
      }
      render(root, this.view, this.currentPrompt() ? this.ctx : null);
      after = root;
    }
  }

  drawAreaInfo(controllers = null) {
    if (!this.view || !this.inspected) return;
    renderAreaInfo(this.el.areaInfo, this.view, this.inspected, controllers || this.view.control);
  }

  /** The question shown: the pending prompt, the committed one being changed, or the prompt
   * of a house this seat answers for (`answering_for`: a house without a seat of its own). */
  currentPrompt() {
    if (this.view.prompt) return this.view.prompt;
    if (this.changing) return this.takeBackOf(this.changing);
    const other = this.answeredHouse();
    return other ? this.view.answering_for[other].prompt : null;
  }

  /** The committed decision of `house` (the seat's own or one it answers for) that the engine
   * lets this seat change now (the view's `take_back`), or null. */
  takeBackOf(house) {
    if (house === this.house) return this.view.take_back;
    return this.view.answering_for?.[house]?.take_back || null;
  }

  /** The houses whose commitment this seat may change now: its own first, then the others. */
  takeBackHouses() {
    const houses = [this.house, ...Object.keys(this.view.answering_for || {})];
    return houses.filter((house) => this.takeBackOf(house));
  }

  /** The first house this seat answers for that is asked something now, or null. */
  answeredHouse() {
    const others = this.view.answering_for || {};
    return Object.keys(others).find((house) => others[house].prompt) || null;
  }

  /** The house the question shown is for: the seat's own, or one it answers for. */
  promptHouse() {
    if (this.view.prompt) return this.house;
    return this.changing || this.answeredHouse() || this.house;
  }

  /** Reopen the committed order set, bid or house card of `house` (the seat's own or one it
   * answers for) until the reveal (4.1, 3.6.2, 5.4.3). */
  startChange(house) {
    const prompt = this.takeBackOf(house);
    if (!prompt) return;
    this.changing = house;
    this.promptKey = JSON.stringify([this.view.round, house, prompt.kind, prompt.data]);
    this.draft = draftOf(prompt.commitment);
    this.draftKey = this.promptKey;
    this.overlayState = {};
    this.showPrompt();
    this.drawBoard();
  }

  showWaiting() {
    this.map.clearChoice();
    const view = this.view;
    const others = view.waiting_for.filter((house) => house !== this.house);
    fill(
      this.el.prompt,
      h(
        "div",
        { class: "prompt-head" },
        h("h2", { class: "prompt-title" }, view.winner ? t("The game is over") : t("Waiting")),
        h(
          "p",
          { class: "prompt-text", "data-testid": "waiting" },
          view.winner
            ? t("{house} has won.", { house: houseName(view.winner) })
            : others.length
              ? [t("Waiting for:"), " ", others.map((house) => houseChip(house))]
              : t("Nothing to decide right now."),
        ),
        this.takeBackButtons(null),
      ),
    );
    this.el.prompt.dataset.kind = "";
  }

  /** The buttons that reopen each commitment this seat may change now, but that of `shown`
   * (the house whose question is on screen): its own, or a vassal's it answers for. */
  takeBackButtons(shown) {
    if (this.view.winner) return [];
    return this.takeBackHouses()
      .filter((house) => house !== shown)
      .map((house) =>
        h(
          "button",
          {
            type: "button",
            class: "button",
            "data-testid": house === this.house ? "take-back" : `take-back-${house}`,
            onclick: () => this.startChange(house),
          },
          this.takeBackLabel(house),
        ),
      );
  }

  /** The words of the button that reopens the commitment of `house`. */
  takeBackLabel(house) {
    const kind = this.takeBackOf(house).kind;
    if (house === this.house) {
      if (kind === "place_orders") return t("Change my orders");
      return kind === "choose_house_card" ? t("Change my card") : t("Change my bid");
    }
    const name = houseName(house);
    if (kind === "place_orders") return t("Change the orders of {house}", { house: name });
    if (kind === "choose_house_card") return t("Change the card of {house}", { house: name });
    return t("Change the bid of {house}", { house: name });
  }

  showPrompt() {
    const prompt = this.currentPrompt();
    this.el.prompt.classList.remove("is-sending");
    if (!prompt) {
      this.showWaiting();
      return;
    }
    this.el.prompt.dataset.kind = prompt.kind;
    const house = this.promptHouse();
    this.el.prompt.dataset.for = house;
    const ctx = {
      view: this.view,
      prompt,
      data: prompt.data || {},
      house,
      seat: this.house,
      draft: this.draft,
      map: this.map,
      keys: null, // a renderer may set keys(key) -> bool for its own shortcuts
      paint: (...nodes) => this.paint(nodes),
      overlay: (state) => {
        this.overlayState = state || {};
        if (this.view) this.map.render(this.mapModel(this.view.control));
      },
      act: (action) => this.act(prompt, action, house),
      hint: (action) => this.seat.hint(action, this.forHouse(house)),
    };
    this.ctx = ctx;
    renderPrompt(ctx);
    announce(this.el.prompt.querySelector(".prompt-title")?.textContent || "");
  }

  /** The `house` an action message names: null for the seat's own house. */
  forHouse(house) {
    return house === this.house ? null : house;
  }

  paint(nodes) {
    const focused = document.activeElement;
    const key =
      focused && this.el.prompt.contains(focused)
        ? focused.dataset.key || focused.dataset.testid
        : null;
    const house = this.ctx ? this.forHouse(this.ctx.house) : null;
    const banner = house
      ? h(
          "p",
          { class: "prompt-note note-info", "data-testid": "answering-for" },
          t("You decide for {house}.", { house: houseName(house) }),
        )
      : null;
    const changes = house ? this.takeBackButtons(house) : [];
    const others = changes.length ? h("p", { class: "prompt-actions" }, changes) : null;
    fill(this.el.prompt, banner, nodes, others);
    if (key) {
      const again = this.el.prompt.querySelector(
        `[data-key="${CSS.escape(key)}"], [data-testid="${CSS.escape(key)}"]`,
      );
      if (again) again.focus();
    }
  }

  act(prompt, action, house = this.house) {
    if (!action) return;
    this.changing = null;
    if (prompt.kind === "place_orders") {
      const round = this.view.round;
      const placed = this.secretOrders?.round === round ? this.secretOrders.placed : {};
      this.secretOrders = {
        round,
        placed: { ...placed, [house]: Object.fromEntries(action.orders) },
      };
    }
    this.sent = this.seat.act(action, this.forHouse(house));
    this.el.prompt.classList.add("is-sending");
    for (const button of this.el.prompt.querySelectorAll("button:not([disabled])")) {
      button.disabled = true;
      button.dataset.wasEnabled = "1";
    }
    this.el.prompt.querySelector(".prompt-error")?.remove();
  }

  // ------------------------------------------------------------------ keyboard and tools
  bindKeys() {
    document.addEventListener("keydown", (event) => {
      const typing = event.target.matches?.("input, textarea, select");
      if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
        const commit = this.el.prompt.querySelector("[data-testid=commit]:not([disabled])");
        if (commit) {
          event.preventDefault();
          commit.click();
        }
        return;
      }
      if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === "?") document.getElementById("help").showModal();
      else if (event.key === "+" || event.key === "=") this.map.zoomBy(1);
      else if (event.key === "-") this.map.zoomBy(-1);
      else if (event.key === "0") this.map.setZoom("width");
      else if (event.key === "f") this.map.setZoom("fit");
      else if (event.key === "a") this.map.focusFirstChoice();
      else if (event.key === "p") this.el.prompt.querySelector("button:not([disabled])")?.focus();
      else if (this.ctx?.keys && this.ctx.keys(event.key)) event.preventDefault();
    });
  }

  /** The map tools and the shortcuts button, served disabled so that a click before the
   * board has loaded is not lost, work from here on. */
  bindTools() {
    const on = (id, fn) => {
      const button = document.getElementById(id);
      button?.addEventListener("click", fn);
      if (button) button.disabled = false;
    };
    on("zoom-in", () => this.map.zoomBy(1));
    on("zoom-out", () => this.map.zoomBy(-1));
    on("zoom-width", () => this.map.setZoom("width"));
    on("zoom-fit", () => this.map.setZoom("fit"));
    on("help-open", () => document.getElementById("help").showModal());
    for (const dialog of document.querySelectorAll("dialog")) {
      dialog.querySelector("[data-close]")?.addEventListener("click", () => dialog.close());
    }
  }
}

/** Offer a seat message to the page's other scripts (event "westeros:seat-message"; online
 * table voice): true if one of them took it (preventDefault). */
function relayed(message) {
  const event = new CustomEvent("westeros:seat-message", { detail: message, cancelable: true });
  return !document.dispatchEvent(event);
}

const board = new Board();
board.start().catch((error) => {
  document.body.prepend(
    h(
      "p",
      { class: "fatal", role: "alert" },
      t("The board could not start: {error}", { error: String(error) }),
    ),
  );
});
