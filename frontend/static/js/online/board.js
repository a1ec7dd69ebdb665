// The online parts of a seat's board: who is at the table (connected, played by the AI,
// time banks) and the chat. Turn notifications come from notify.js, as on the local board.
import { houseName } from "../content.js";
import { h } from "../dom.js";
import { loadCatalog, t } from "../i18n.js";
import { lobbySocket } from "./api.js";
import { Chat } from "./chat.js";
import { Voice } from "./voice.js";

const lobbyId = document.body.dataset.lobby;
const myHouse = document.body.dataset.house;

/** The last roster and when it came: a bank that runs is counted down from it each second
 * until the next one (issue 37 point 4: the clock stood still until a reload). */
let shown = { seats: [], at: 0 };

function roster(seats) {
  shown = { seats, at: performance.now() };
  showRoster();
}

function showRoster() {
  const gone = (performance.now() - shown.at) / 1000;
  const items = shown.seats.map((seat) => {
    const state = seat.ai ? t("AI") : seat.connected ? t("connected") : t("disconnected");
    const left = seat.clock_left - (seat.clock_running ? gone : 0);
    const clock = seat.clock_left === null ? "" : ` · ${Math.max(0, Math.round(left))} s`;
    return h(
      "li",
      {
        dataset: {
          testid: `roster-${seat.house}`,
          connected: String(seat.connected),
          ai: String(seat.ai),
          clockRunning: String(Boolean(seat.clock_running)),
        },
      },
      `${houseName(seat.house)}: ${seat.player ?? t("AI")} · ${state}${clock}`,
      h("span", { class: "voice-badge", dataset: { voiceHouse: seat.house }, hidden: true }),
    );
  });
  document.getElementById("roster").replaceChildren(...items);
}

setInterval(() => {
  if (shown.seats.some((seat) => seat.clock_running)) showRoster();
}, 1000);

async function main() {
  await loadCatalog(document.documentElement.lang || "en");
  let chat;
  let voice;
  const socket = lobbySocket(lobbyId, (message) => {
    if (message.type === "roster") {
      roster(message.seats);
      chat.houses(message.seats, myHouse);
      voice.houses(message.seats, message.lobby, myHouse);
      return;
    }
    if (message.type === "seat" && message.house !== myHouse) {
      // this seat is no longer yours: the lobby shows what you hold now (issue 35 finding 5)
      chat.reseated(message.house);
      location.assign(`/lobbies/${encodeURIComponent(lobbyId)}`);
      return;
    }
    chat.received(message);
  });
  chat = new Chat(socket, myHouse);
  // table voice talks over the seat's own socket (board.js: "westeros:seat-send/-message")
  const seat = {
    send: (detail) => document.dispatchEvent(new CustomEvent("westeros:seat-send", { detail })),
  };
  voice = new Voice(seat, myHouse);
  document.addEventListener("westeros:seat-message", (event) => {
    if (voice.received(event.detail)) event.preventDefault();
  });
}

main();
