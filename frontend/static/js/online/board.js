// The online parts of a seat's board: who is at the table (connected, played by the AI,
// time banks), the chat, and turn notifications (tab title, sound, desktop notification)
// when a decision waits for this house while the window is in the background.
import { houseName } from "../content.js";
import { h } from "../dom.js";
import { loadCatalog, t } from "../i18n.js";
import { lobbySocket } from "./api.js";
import { Chat } from "./chat.js";

const lobbyId = document.body.dataset.lobby;
const myHouse = document.body.dataset.house;
const title = document.title;

function roster(seats) {
  const items = seats.map((seat) => {
    const state = seat.ai ? t("AI") : seat.connected ? t("connected") : t("disconnected");
    const clock = seat.clock_left === null ? "" : ` · ${Math.max(0, Math.round(seat.clock_left))} s`;
    return h(
      "li",
      { dataset: { testid: `roster-${seat.house}`, connected: String(seat.connected), ai: String(seat.ai) } },
      `${houseName(seat.house)}: ${seat.player ?? t("AI")} · ${state}${clock}`,
    );
  });
  document.getElementById("roster").replaceChildren(...items);
}

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    tone.connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
  } catch {
    /* no sound available */
  }
}

function watchTurn() {
  let waiting = false;
  const check = () => {
    const mine = Boolean(document.body.dataset.prompt);
    const yourTurn = t("Your turn");
    document.title = mine ? `• ${yourTurn} — ${title}` : title;
    if (mine && !waiting && document.hidden) {
      beep();
      if (window.Notification && Notification.permission === "granted")
        new Notification(t("Westeros: your turn"), { body: t("A decision is waiting for you.") });
    }
    waiting = mine;
  };
  new MutationObserver(check).observe(document.body, { attributes: true, attributeFilter: ["data-prompt"] });
  if (window.Notification && Notification.permission === "default")
    document.addEventListener("click", () => Notification.requestPermission(), { once: true });
}

async function main() {
  await loadCatalog(document.documentElement.lang || "en");
  let chat;
  const socket = lobbySocket(lobbyId, (message) => {
    if (message.type === "roster") {
      roster(message.seats);
      chat.houses(message.seats, myHouse);
      return;
    }
    chat.received(message);
  });
  chat = new Chat(socket, myHouse);
  watchTurn();
}

main();
