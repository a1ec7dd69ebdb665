// The table chat and ravens: every text is put in as text (never as HTML). Each line of
// another person has Block (their lines no longer reach you, here and anywhere) and Report
// (with a reason, for the server's operators); your blocks are listed with Unblock. At an
// anonymous table names show as "Player of House …" until the game ends (issue 40).
import { houseName } from "../content.js";
import { h } from "../dom.js";
import { errorText } from "../errors.js";
import { t } from "../i18n.js";
import { promptText } from "../prompt-titles.js";
import { voteLineText } from "./vote-lines.js";

/** Send JSON to the server as this browser's player: the reply's JSON, or throws its text. */
async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(errorText(data));
  return data;
}

/** Are names hidden at this table now: an anonymous table whose game is not over? */
export function namesHidden(lobby) {
  return Boolean(lobby?.settings?.anonymous) && lobby?.status !== "finished";
}

/** The name a person in seat `house` shows, `name` as the server sent it: at an anonymous
 * table ("hidden"), "Player of House …" in the page's language. */
export function shownName(name, house, hidden) {
  if (!hidden || !name || !house) return name;
  return t("Player of House {house}", { house: houseName(house) });
}

export class Chat {
  /** `lobby`, if the page has read it already: whether its names are hidden from the first
   * line on. */
  constructor(socket, myHouse, lobby = null) {
    this.socket = socket;
    this.myHouse = myHouse;
    this.hidden = namesHidden(lobby);
    this.lobbyId = document.body.dataset.lobby;
    this.lines = document.getElementById("chat-lines");
    this.to = document.getElementById("chat-to");
    this.error = document.getElementById("chat-error");
    this.blocked = document.getElementById("chat-blocked");
    this.seen = new Set();
    this.shown = []; // the chat messages on the page, in order (redrawn when names show)
    this.reports = new Map(); // message id: its open report form, or the mark that it was sent
    this.notice = null;
    const form = document.getElementById("chat-form");
    form?.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = document.getElementById("chat-text");
      const text = input.value.trim();
      if (!text) return;
      this.socket.send({ type: "chat", text, to: this.to.value || null });
      input.value = "";
    });
    this.showBlocks();
  }

  /** The seats of the table (ravens go to them) and, with `lobby`, whether its names are
   * hidden now. */
  houses(seats, myHouse, lobby) {
    this.myHouse = myHouse;
    if (lobby && namesHidden(lobby) !== this.hidden) {
      this.hidden = namesHidden(lobby);
      this.redraw();
    }
    const chosen = this.to.value;
    this.to.replaceChildren(h("option", { value: "" }, t("Everyone")));
    if (!myHouse) return;
    for (const seat of seats) {
      if (seat.house === myHouse) continue;
      this.to.append(h("option", { value: seat.house }, t("Raven to {house}", { house: houseName(seat.house) })));
    }
    this.to.value = chosen;
  }

  /** The socket now speaks for `house` (null: no seat): show only what that seat may read,
   * which the server sends next (issue 35 finding 4). */
  reseated(house) {
    this.myHouse = house;
    this.seen.clear();
    this.shown = [];
    const notice = house
      ? t("You now hold {house}: the chat shows that seat's ravens.", { house: houseName(house) })
      : t("You hold no seat now: the chat shows the public table only.");
    this.notice = h("li", { class: "chat-line chat-notice", dataset: { testid: "chat-seat" } }, notice);
    this.redraw();
  }

  /** Draw the lines again (the names they show changed: an anonymous table's game ended, or
   * the page learnt that its table is anonymous after the first lines came). */
  redraw() {
    this.lines.replaceChildren(...(this.notice ? [this.notice] : []), ...this.shown.map((m) => this.line(m)));
  }

  showError(text) {
    this.error.hidden = false;
    this.error.textContent = text;
    setTimeout(() => (this.error.hidden = true), 4000);
  }

  received(message) {
    if (message.type === "error" && message.code?.startsWith("chat/")) {
      this.showError(errorText(message));
      return;
    }
    if (message.type !== "chat" || this.seen.has(message.id)) return;
    this.seen.add(message.id);
    this.shown.push(message);
    this.lines.append(this.line(message));
    this.lines.scrollTop = this.lines.scrollHeight;
  }

  /** A live chat line: the line, with Block and Report when another person wrote it. */
  line(message) {
    const item = lineItem(message, shownName(message.name, message.house, this.hidden));
    if (message.house && message.house === this.myHouse) return item;
    const actions = h(
      "span",
      { class: "chat-actions" },
      h("button", { type: "button", class: "chat-action", dataset: { testid: "chat-block" }, onclick: () => this.block(message) }, t("Block")),
      h("button", { type: "button", class: "chat-action", dataset: { testid: "chat-report" }, onclick: () => this.reportForm(item, message) }, t("Report")),
    );
    item.append(actions);
    const report = this.reports.get(message.id); // a report being written outlives a redraw
    if (report) item.append(report);
    return item;
  }

  /** Block the writer of `message`: their lines leave this page (and every other of yours). */
  async block(message) {
    try {
      const data = await call("POST", "/api/chat/blocks", { lobby: this.lobbyId, message: message.id });
      const gone = new Set(data.hidden);
      this.shown = this.shown.filter((m) => !gone.has(m.id));
      this.redraw();
      await this.showBlocks();
    } catch (error) {
      this.showError(error.message);
    }
  }

  /** Ask why `message` is reported, under its line, and send the report. */
  reportForm(item, message) {
    if (this.reports.has(message.id)) return;
    const reason = h("input", { name: "reason", maxlength: 500, required: true, "aria-label": t("Why do you report this message?"), dataset: { testid: "chat-report-reason" } });
    const form = h(
      "form",
      { class: "chat-report", dataset: { testid: "chat-report-form" } },
      reason,
      h("button", { type: "submit", class: "chat-action" }, t("Send the report")),
      h("button", { type: "button", class: "chat-action", onclick: () => this.closeReport(message, form) }, t("Cancel")),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await call("POST", "/api/chat/reports", { lobby: this.lobbyId, message: message.id, reason: reason.value });
        const done = h("span", { class: "chat-meta", dataset: { testid: "chat-reported" } }, t("Reported: the server's operators will read it."));
        this.reports.set(message.id, done);
        form.replaceWith(done);
      } catch (error) {
        this.showError(error.message);
      }
    });
    this.reports.set(message.id, form);
    item.append(form);
    reason.focus();
  }

  /** Close the report form of `message` unsent. */
  closeReport(message, form) {
    this.reports.delete(message.id);
    form.remove();
  }

  /** List this player's blocks, each with Unblock (hidden without a player or a block). */
  async showBlocks() {
    const panel = document.getElementById("chat-blocks");
    if (!panel) return;
    let blocks = [];
    try {
      blocks = (await call("GET", "/api/chat/blocks")).blocks;
    } catch {
      blocks = [];
    }
    panel.hidden = !blocks.length;
    this.blocked.replaceChildren(
      ...blocks.map((block) =>
        h(
          "li",
          { dataset: { testid: "chat-blocked" } },
          `${block.name} `,
          h("button", { type: "button", class: "chat-action", onclick: () => this.unblock(block) }, t("Unblock")),
        ),
      ),
    );
  }

  /** Lift `block`: the table's history (their lines again) is read anew. */
  async unblock(block) {
    try {
      await call("DELETE", `/api/chat/blocks/${encodeURIComponent(block.id)}`);
      const data = await call("GET", `/api/lobbies/${encodeURIComponent(this.lobbyId)}/chat`);
      this.seen.clear();
      this.shown = [];
      this.redraw();
      for (const message of data.chat) this.received(message);
      await this.showBlocks();
    } catch (error) {
      this.showError(error.message);
    }
  }
}

/** One chat line as a list item: who (`name`), to whom, when, and the text (as text). */
function lineItem(message, name) {
  const when = message.round
    ? t("round {round}, {phase}", {
        round: message.round,
        phase: promptText({ kind: message.phase, data: {} }).phase,
      })
    : t("before the game");
  const who = message.house ? `${name} (${houseName(message.house)})` : name;
  const where = message.to
    ? t("raven to {house}", { house: houseName(message.to) })
    : t("to everyone");
  return h(
    "li",
    { class: message.to ? "chat-line chat-raven" : "chat-line", dataset: { testid: "chat-line" } },
    h("span", { class: "chat-meta" }, `${who} · ${where} · ${when}`),
    // a vote's line carries what it says (`system`): shown in the page's language (issue 40)
    h("span", { class: "chat-text" }, message.system ? voteLineText(message.system) : message.text),
  );
}

/** One chat line as a list item (the replay's Table talk: no actions). */
export function chatLine(message) {
  return lineItem(message, message.name);
}
