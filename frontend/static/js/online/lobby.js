// One lobby: seats (take, ready; the host starts, kicks, hands back), invite links, chat.
import { houseName, setContent } from "../content.js";
import { h } from "../dom.js";
import { loadCatalog, t } from "../i18n.js";
import { ensurePlayer, get, identityForm, lobbySocket, post, showError } from "./api.js";
import { Chat, namesHidden, shownName } from "./chat.js";
import { Voice, watchSocket } from "./voice.js";
import { VotePanel } from "./votes.js";

const lobbyId = document.body.dataset.lobby;
const base = `/api/lobbies/${encodeURIComponent(lobbyId)}`;
let you = { house: null, host: false };
let shown = null; // the lobby as last read
let chat;
let voice;
const votes = new VotePanel(lobbyId, null); // table votes (issue 40)

/** A seat open for a person that nobody has taken yet. */
const isFree = (seat) => seat.open && !seat.player;

async function act(path, body) {
  try {
    const data = await post(`${base}/${path}`, body);
    if (data.invite) addInvite(body.house, data.invite);
    await load();
  } catch (error) {
    showError("lobby-error", error);
  }
}

function addInvite(house, link) {
  const stored = JSON.parse(sessionStorage.getItem(`westeros.invites.${lobbyId}`) || "{}");
  stored[house] = link;
  sessionStorage.setItem(`westeros.invites.${lobbyId}`, JSON.stringify(stored));
}

function invites(lobby) {
  const stored = JSON.parse(sessionStorage.getItem(`westeros.invites.${lobbyId}`) || "{}");
  const free = new Set(lobby.seats.filter(isFree).map((s) => s.house));
  const items = Object.entries(stored)
    .filter(([house]) => free.has(house))
    .map(([house, link]) =>
      h("li", {}, `${houseName(house)}: `, h("input", { readonly: true, value: new URL(link, location.href).href, dataset: { testid: `invite-${house}` } })),
    );
  document.getElementById("invites").replaceChildren(...items);
  document.getElementById("invites-panel").hidden = !you.host || !items.length;
}

function render(lobby, roster) {
  shown = lobby;
  document.getElementById("lobby-name").textContent = lobby.name;
  document.getElementById("lobby-status").textContent =
    lobby.status === "open" ? t("Waiting for players") : t("The game is running");
  const connected = new Map((roster || []).map((s) => [s.house, s.connected]));
  const offers = new Map((roster || []).map((s) => [s.house, s.offer])); // by turns (issue 40)
  const rows = lobby.seats.map((seat) => {
    const hidden = namesHidden(lobby); // an anonymous table (issue 40)
    const who = seat.player ? shownName(seat.player, seat.house, hidden) : seat.open ? t("free") : t("AI");
    const cells = [
      h("th", { scope: "row" }, houseName(seat.house)),
      h("td", { dataset: { testid: `seat-${seat.house}` } }, who),
      h("td", {}, seat.ready ? t("ready") : ""),
      h("td", {}, connected.get(seat.house) ? t("connected") : seat.player ? t("disconnected") : ""),
    ];
    const buttons = [];
    if (isFree(seat) && lobby.status === "open")
      buttons.push(h("button", { class: "button button-small", onclick: () => act("take", { house: seat.house }) }, t("Take")));
    if (offers.get(seat.house) && !seat.player && !you.house)
      buttons.push(h("a", { class: "button button-small", href: offers.get(seat.house), dataset: { testid: `offer-${seat.house}` } }, t("Take this seat")));
    if (you.host && seat.player && !seat.host)
      buttons.push(h("button", { class: "button button-small", onclick: () => act("kick", { house: seat.house }) }, t("Give to the AI")));
    if (you.host && !seat.player && !seat.open)
      buttons.push(h("button", { class: "button button-small", onclick: () => act("hand-back", { house: seat.house }) }, t("Open for a person")));
    cells.push(h("td", {}, ...buttons));
    return h("tr", {}, ...cells);
  });
  document.getElementById("seats").replaceChildren(...rows);
  const open = lobby.status === "open";
  document.getElementById("take-random").hidden = !open || !lobby.seats.some(isFree);
  document.getElementById("start").hidden = !you.host || !open;
  document.getElementById("ready").hidden = !you.house || !open;
  const play = document.getElementById("play");
  // A lobby is "running" a moment before its game has an id (the start is claimed first):
  // Play shows once it leads somewhere.
  play.hidden = !(lobby.status === "running" && lobby.game_id && you.house);
  if (!play.hidden)
    play.href = `/games/${encodeURIComponent(lobby.game_id)}/play/${encodeURIComponent(you.house)}`;
  chat?.houses(lobby.seats, you.house, lobby);
  votes.houses(lobby, you.house);
  invites(lobby);
  listen(lobby);
}

/** A spectator of a running game whose host lets spectators hear the table: table voice,
 * listening only, over the game's watch socket. */
function listen(lobby) {
  voice?.houses(lobby.seats, lobby, null);
  const slot = document.getElementById("voice-slot");
  if (voice || !slot || you.house || lobby.status !== "running" || !lobby.settings?.spectators_hear)
    return;
  slot.hidden = false;
  voice = new Voice(watchSocket(lobby.game_id, (message) => voice.received(message)), null);
  voice.houses(lobby.seats, lobby, null);
}

async function load(roster) {
  try {
    const data = await get(base);
    you = data.you;
    render(data.lobby, roster);
  } catch (error) {
    showError("lobby-error", error);
  }
}

async function main() {
  setContent(JSON.parse(document.getElementById("game-content").textContent));
  await loadCatalog(document.documentElement.lang || "en");
  await ensurePlayer().catch(() => null);
  identityForm(() => load());
  document.getElementById("take-random").addEventListener("click", () => act("take", { house: "random" }));
  document.getElementById("ready").addEventListener("click", () => act("ready", { ready: true }));
  document.getElementById("start").addEventListener("click", () => act("start", {}));
  await load();
  const socket = lobbySocket(lobbyId, (message) => {
    if (votes.received(message)) return;
    if (message.type === "roster") {
      load(message.seats);
      return;
    }
    if (message.type === "seat") {
      chat.reseated(message.house);
      load();
      return;
    }
    chat.received(message);
  });
  chat = new Chat(socket, you.house, shown);
}

main();
