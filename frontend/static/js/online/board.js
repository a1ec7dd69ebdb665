// The online parts of a seat's board: who is at the table (connected, played by the AI,
// time banks) and the chat. Turn notifications come from notify.js, as on the local board.
import { houseName } from "../content.js";
import { h } from "../dom.js";
import { loadCatalog, t } from "../i18n.js";
import { lobbySocket } from "./api.js";
import { Chat } from "./chat.js";

const lobbyId = document.body.dataset.lobby;
const myHouse = document.body.dataset.house;

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

async function main() {
  await loadCatalog(document.documentElement.lang || "en");
  let chat;
  const socket = lobbySocket(lobbyId, (message) => {
    if (message.type === "roster") {
      roster(message.seats);
      chat.houses(message.seats, myHouse);
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
}

main();
