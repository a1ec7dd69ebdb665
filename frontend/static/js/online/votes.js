// The "Table votes" panel of the online board and of a running game's lobby page (issue 40,
// docs/online-votes.md): the seated people call a vote (pause, resume when paused, extend the
// clocks, replace a house by the AI or a new person, end now, cancel), see the open one (who
// called it, yes and no, what is needed, time left), vote yes or no (never on their own
// replacement) and read the result. A game paused by vote shows a banner. Every text is put
// in as text.
import { houseName } from "../content.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { get, post, showError } from "./api.js";
import { proposalText, resultText } from "./vote-lines.js";

/** "1:02:03" / "2:03": the seconds until `iso`. */
function timeLeft(iso) {
  const seconds = Math.max(0, Math.round((Date.parse(iso) - Date.now()) / 1000));
  const hours = Math.floor(seconds / 3600);
  const mm = String(Math.floor((seconds % 3600) / 60)).padStart(hours ? 2 : 1, "0");
  const ss = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

export class VotePanel {
  /** The panel of `lobbyId`'s table (the partial online/votes.html); `myHouse`: this page's
   * seat (null: a spectator, who only reads). */
  constructor(lobbyId, myHouse) {
    this.base = `/api/lobbies/${encodeURIComponent(lobbyId)}/votes`;
    this.myHouse = myHouse;
    this.lobby = null;
    this.votes = [];
    this.paused = false;
    this.allowed = []; // the kinds the server lets this table call now
    this.panel = document.getElementById("votes-panel");
    this.form = document.getElementById("votes-call");
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.call();
    });
    this.form.elements.kind.addEventListener("change", () => this.showArguments());
    setInterval(() => this.countdown(), 1000);
  }

  /** The table as it stands (`lobby`: its public JSON with the seats), and this page's seat. */
  houses(lobby, myHouse) {
    const running = lobby.status === "running";
    const was = this.lobby?.status;
    this.lobby = lobby;
    this.myHouse = myHouse;
    this.panel.hidden = !running;
    if (running && was !== "running") this.load();
    else this.render();
  }

  async load() {
    try {
      const data = await get(this.base);
      this.votes = data.votes;
      this.paused = data.paused;
      this.allowed = data.kinds;
      this.render();
    } catch (error) {
      showError("votes-error", error);
    }
  }

  /** A socket message: true when it was a vote's. */
  received(message) {
    if (message.type !== "vote") return false;
    const at = this.votes.findIndex((v) => v.id === message.vote.id);
    if (at < 0) this.votes.push(message.vote);
    else this.votes[at] = message.vote;
    this.paused = message.paused;
    if (message.kinds) this.allowed = message.kinds;
    this.render();
    return true;
  }

  /** The people holding a seat now (a replacement is voted on for one of them). */
  people() {
    return (this.lobby?.seats || []).filter((seat) => seat.player);
  }

  render() {
    if (!this.lobby) return;
    const banner = document.getElementById("votes-paused");
    banner.hidden = !this.paused;
    document.body.classList.toggle("paused-by-vote", this.paused);
    const open = this.votes.find((v) => v.status === "open");
    document.getElementById("votes-open").replaceChildren(...(open ? this.openVote(open) : []));
    const closed = this.votes.filter((v) => v.status !== "open").at(-1);
    document.getElementById("votes-last").replaceChildren(...(closed ? this.result(closed) : []));
    const seated = Boolean(this.myHouse) && this.people().some((s) => s.house === this.myHouse);
    this.form.hidden = !seated || Boolean(open) || this.lobby.status !== "running";
    if (!this.form.hidden) this.kinds();
  }

  /** The open vote: what, who called it, the count, time left, and my ballot buttons. */
  openVote(vote) {
    const items = [
      h("p", { dataset: { testid: "vote-what" } }, t("{house} calls a vote to {what}.", { house: houseName(vote.caller), what: proposalText({ vote: vote.kind, ...vote }) })),
      h(
        "p",
        { dataset: { testid: "vote-count" } },
        t("Yes: {yes} · No: {no} · {needed} of {voters} yes needed", vote),
        " · ",
        h("span", { id: "votes-time", dataset: { closes: vote.closes_at } }, t("time left: {time}", { time: timeLeft(vote.closes_at) })),
      ),
    ];
    const mine = vote.ballots[this.myHouse];
    if (!this.myHouse) return items;
    if (vote.kind === "replace" && vote.house === this.myHouse) {
      items.push(h("p", { dataset: { testid: "vote-own" } }, t("This vote is about your seat: you do not vote on it.")));
    } else if (mine !== undefined) {
      items.push(h("p", { dataset: { testid: "vote-mine" } }, mine ? t("You voted yes.") : t("You voted no.")));
    } else {
      const ballot = (yes) => () => this.ballot(vote, yes);
      items.push(
        h(
          "p",
          { class: "online-actions" },
          h("button", { type: "button", class: "button button-small", dataset: { testid: "vote-yes" }, onclick: ballot(true) }, t("Vote yes")),
          " ",
          h("button", { type: "button", class: "button button-small", dataset: { testid: "vote-no" }, onclick: ballot(false) }, t("Vote no")),
        ),
      );
    }
    return items;
  }

  /** The last closed vote: passed or failed, the standings, a new person's invite link. */
  result(vote) {
    const text = resultText(vote.status, vote.result.reason, { vote: vote.kind, ...vote }, vote.result.standings);
    const items = [h("p", { dataset: { testid: "vote-result", status: vote.status } }, text)];
    if (vote.result.invite)
      items.push(
        h(
          "p",
          {},
          h("label", {}, t("Invite link for the new person:"), " ", h("input", { readonly: true, value: new URL(vote.result.invite, location.href).href, dataset: { testid: "vote-invite" } })),
        ),
      );
    return items;
  }

  countdown() {
    const node = document.getElementById("votes-time");
    if (node) node.textContent = t("time left: {time}", { time: timeLeft(node.dataset.closes) });
  }

  /** The kinds this table may vote on now, as the server says (`kinds` of its votes
   * message), a replacement only while another person holds a seat; the chosen one kept. */
  kinds() {
    const select = this.form.elements.kind;
    const chosen = select.value;
    const byTurns = this.lobby.settings?.pace?.mode === "by_turns";
    const others = this.people().filter((s) => s.house !== this.myHouse);
    const allowed = this.allowed.filter((kind) => kind !== "replace" || others.length > 0);
    const label = {
      pause: t("pause the game"),
      resume: t("resume the game"),
      extend: t("extend the clocks"),
      replace: t("replace a player"),
      end: t("end the game now"),
      cancel: t("cancel the game"),
    };
    select.replaceChildren(...allowed.map((kind) => h("option", { value: kind }, label[kind])));
    select.value = allowed.includes(chosen) ? chosen : allowed[0];
    const house = this.form.elements.house;
    const target = house.value;
    house.replaceChildren(...others.map((s) => h("option", { value: s.house }, houseName(s.house))));
    if (others.some((s) => s.house === target)) house.value = target;
    document.getElementById("votes-unit").textContent = byTurns ? t("hours") : t("minutes");
    this.showArguments();
  }

  showArguments() {
    const kind = this.form.elements.kind.value;
    document.getElementById("votes-replace").hidden = kind !== "replace";
    document.getElementById("votes-extend").hidden = kind !== "extend";
  }

  async call() {
    const { kind, house, by, amount } = this.form.elements;
    const body = { kind: kind.value };
    if (kind.value === "replace") Object.assign(body, { house: house.value, by: by.value });
    if (kind.value === "extend") {
      const hours = this.lobby.settings?.pace?.mode === "by_turns";
      body.minutes = Math.round(Number(amount.value) * (hours ? 60 : 1));
    }
    try {
      showError("votes-error", null);
      this.received({ type: "vote", paused: this.paused, ...(await post(this.base, body)) });
    } catch (error) {
      showError("votes-error", error);
    }
  }

  async ballot(vote, yes) {
    try {
      showError("votes-error", null);
      const data = await post(`${this.base}/${encodeURIComponent(vote.id)}/ballots`, { yes });
      this.received({ type: "vote", paused: this.paused, ...data });
    } catch (error) {
      showError("votes-error", error);
    }
  }
}
