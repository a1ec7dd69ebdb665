// The table chat and ravens: every text is put in as text (never as HTML).
import { houseName } from "../content.js";
import { h } from "../dom.js";
import { errorText } from "../errors.js";
import { t } from "../i18n.js";
import { promptText } from "../prompt-titles.js";

export class Chat {
  constructor(socket, myHouse) {
    this.socket = socket;
    this.myHouse = myHouse;
    this.lines = document.getElementById("chat-lines");
    this.to = document.getElementById("chat-to");
    this.seen = new Set();
    const form = document.getElementById("chat-form");
    form?.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = document.getElementById("chat-text");
      const text = input.value.trim();
      if (!text) return;
      this.socket.send({ type: "chat", text, to: this.to.value || null });
      input.value = "";
    });
  }

  houses(seats, myHouse) {
    this.myHouse = myHouse;
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
    const notice = house
      ? t("You now hold {house}: the chat shows that seat's ravens.", { house: houseName(house) })
      : t("You hold no seat now: the chat shows the public table only.");
    this.lines.replaceChildren(
      h("li", { class: "chat-line chat-notice", dataset: { testid: "chat-seat" } }, notice),
    );
  }

  received(message) {
    if (message.type === "error" && message.code?.startsWith("chat/")) {
      const node = document.getElementById("chat-error");
      node.hidden = false;
      node.textContent = errorText(message);
      setTimeout(() => (node.hidden = true), 4000);
      return;
    }
    if (message.type !== "chat" || this.seen.has(message.id)) return;
    this.seen.add(message.id);
    this.lines.append(chatLine(message));
    this.lines.scrollTop = this.lines.scrollHeight;
  }
}

/** One chat line as a list item: who, to whom, when, and the text (as text, never HTML). */
export function chatLine(message) {
  const when = message.round
    ? t("round {round}, {phase}", {
        round: message.round,
        phase: promptText({ kind: message.phase, data: {} }).phase,
      })
    : t("before the game");
  const who = message.house ? `${message.name} (${houseName(message.house)})` : message.name;
  const where = message.to
    ? t("raven to {house}", { house: houseName(message.to) })
    : t("to everyone");
  return h(
    "li",
    { class: message.to ? "chat-line chat-raven" : "chat-line", dataset: { testid: "chat-line" } },
    h("span", { class: "chat-meta" }, `${who} · ${where} · ${when}`),
    h("span", { class: "chat-text" }, message.text),
  );
}
