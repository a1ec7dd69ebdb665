// The online parts of a seat's board: who is at the table (connected, played by the AI,
// time banks) and the chat. Turn notifications come from notify.js, as on the local board.
import { houseName } from "../content.js";
import { h } from "../dom.js";
import { loadCatalog, t, tn } from "../i18n.js";
import { lobbySocket, post, showError } from "./api.js";
import { Chat, namesHidden, shownName } from "./chat.js";
import { Voice } from "./voice.js";
import { VotePanel } from "./votes.js";

const lobbyId = document.body.dataset.lobby;
const myHouse = document.body.dataset.house;

/** The last roster and when it came: a bank that runs is counted down from it each second
 * until the next one (issue 37 point 4: the clock stood still until a reload). */
let shown = { seats: [], at: 0, hidden: false };

function roster(seats, lobby) {
  shown = { seats, at: performance.now(), hidden: namesHidden(lobby) }; // anonymous: issue 40
  showRoster();
  paceControls(lobby);
}

/** The time left until `iso`, readable (a game by turns: each decision's deadline). */
function countdown(iso) {
  const seconds = Math.round((Date.parse(iso) - Date.now()) / 1000);
  if (seconds <= 0) return t("deadline passed");
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days) return t("due in {days} d {hours} h", { days, hours });
  if (hours) return t("due in {hours} h {minutes} min", { hours, minutes });
  if (minutes) return t("due in {minutes} min {seconds} s", { minutes, seconds: seconds % 60 });
  return t("due in {seconds} s", { seconds });
}

/** What the roster says of a seat of a game by turns (issue 40): its deadline, a vacation,
 * missed deadlines, the AI keeping it, an offer to a new person. */
function turns(seat) {
  const parts = [];
  if (seat.deadline_at) parts.push(countdown(seat.deadline_at));
  if (seat.vacation_until) parts.push(t("on vacation"));
  if (seat.kept_by_ai) parts.push(t("the AI keeps this seat"));
  if (seat.missed) parts.push(tn("{n} deadline missed", "{n} deadlines missed", seat.missed));
  if (seat.offer) parts.push(t("offered to a new person"));
  return parts.map((part) => ` · ${part}`).join("");
}

/** Under the roster, in a game by turns: your vacation (when the host allows one) and, when
 * the AI keeps your seat, how to take it back (opening the board again). */
function paceControls(lobby) {
  let box = document.getElementById("pace-controls");
  if (!box) {
    box = h("div", { id: "pace-controls", dataset: { testid: "pace-controls" } });
    document.getElementById("roster").after(box);
  }
  const pace = lobby?.settings?.pace;
  const mine = shown.seats.find((seat) => seat.house === myHouse);
  const items = [];
  if (pace?.mode === "by_turns" && mine?.kept_by_ai) {
    const again = h("button", { class: "button button-small", onclick: () => location.reload() }, t("Play again"));
    items.push(h("p", {}, t("You missed too many deadlines: the AI plays your seat."), " ", again));
  }
  if (pace?.mode === "by_turns" && mine && pace.vacation_days > 0) {
    const away = Boolean(mine.vacation_until);
    const left = mine.vacation_left ?? pace.vacation_days * 86400;
    const text = away
      ? t("On vacation until {time}", { time: new Date(mine.vacation_until).toLocaleString() })
      : t("Vacation left: {days} days", { days: Math.round((left / 86400) * 10) / 10 });
    const button = h(
      "button",
      {
        class: "button button-small",
        dataset: { testid: "vacation" },
        disabled: !away && left <= 0,
        onclick: () => vacation(!away),
      },
      away ? t("End my vacation") : t("Start a vacation"),
    );
    items.push(h("p", {}, text, " ", button));
  }
  items.push(h("p", { class: "online-error", id: "pace-error", role: "alert", hidden: true }));
  box.replaceChildren(...items);
}

async function vacation(on) {
  try {
    await post(`/api/lobbies/${encodeURIComponent(lobbyId)}/vacation`, { on });
  } catch (error) {
    showError("pace-error", error);
  }
}

function showRoster() {
  const gone = (performance.now() - shown.at) / 1000;
  const items = shown.seats.map((seat) => {
    const state = seat.ai ? t("AI") : seat.connected ? t("connected") : t("disconnected");
    const left = seat.clock_left - (seat.clock_running ? gone : 0);
    const clock =
      (seat.clock_left === null ? "" : ` · ${Math.max(0, Math.round(left))} s`) + turns(seat);
    return h(
      "li",
      {
        dataset: {
          testid: `roster-${seat.house}`,
          connected: String(seat.connected),
          ai: String(seat.ai),
          clockRunning: String(Boolean(seat.clock_running)),
          deadlineAt: seat.deadline_at ?? "",
        },
        title: seat.deadline_at ? new Date(seat.deadline_at).toLocaleString() : null,
      },
      `${houseName(seat.house)}: ${seat.player ? shownName(seat.player, seat.house, shown.hidden) : t("AI")} · ${state}${clock}`,
      h("span", { class: "voice-badge", dataset: { voiceHouse: seat.house }, hidden: true }),
    );
  });
  document.getElementById("roster").replaceChildren(...items);
}

setInterval(() => {
  if (shown.seats.some((seat) => seat.clock_running || seat.deadline_at)) showRoster();
}, 1000);

async function main() {
  await loadCatalog(document.documentElement.lang || "en");
  let chat;
  let voice;
  const votes = new VotePanel(lobbyId, myHouse); // table votes (issue 40)
  const socket = lobbySocket(lobbyId, (message) => {
    if (votes.received(message)) return;
    if (message.type === "roster") {
      roster(message.seats, message.lobby);
      votes.houses(message.lobby, myHouse);
      chat.houses(message.seats, myHouse, message.lobby);
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
