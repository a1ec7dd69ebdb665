// The board's deals panel (partials/deals.html; issue 15 point 4): offer another house one
// promise for this round, accept or decline the offers made to you, and see your deals and
// whether they were kept. Everything comes from GET /games/{id}/deals/{house}, which holds only
// this seat's own offers and deals; the panel refreshes whenever the board shows a new state.
// The same message's `log` (issue 36 point 5) goes into the game log (#log), each line at its
// round: every offer, its answer, and whether each house kept its side; its `promises` tell the
// march prompt which destinations break one of this seat's deals (`promisesBroken`).
import { areaName, houseName, rawContent, trackName } from "./content.js";
import { fill, h } from "./dom.js";
import { errorText } from "./errors.js";
import { listed, loadCatalog, t } from "./i18n.js";

const AREA_TERMS = new Set(["stay_out", "support_promise"]);

/** A deal term in plain words. */
export function describeTerm(term) {
  const name = houseName;
  const round = term.round;
  if (term.kind === "non_aggression") {
    const [a, b] = term.houses.map(name);
    return t("{a} and {b} do not attack each other in round {round}: no march into and no raid on the other's areas", { a, b, round });
  }
  if (term.kind === "stay_out") {
    return t("{house} marches no units into {area} in round {round}", { house: name(term.house), area: areaName(term.area), round });
  }
  if (term.kind === "support_promise") {
    return t("{giver} supports {receiver} in a battle in {area} in round {round}", {
      giver: name(term.giver), receiver: name(term.receiver), area: areaName(term.area), round,
    });
  }
  if (term.kind === "split_bids") {
    return t("{houses} bid at most {most} power for {track} in round {round}", {
      houses: term.houses.map(name).join(" · "), most: term.most, track: trackName(term.track), round,
    });
  }
  return t("An unknown promise");
}

/** One entry of the deal log (`DealTable.log`) as a sentence. */
export function dealLogText(entry) {
  const terms = (entry.terms || []).map(describeTerm).join("; ");
  if (entry.kind === "deal_proposed") {
    return t("{proposer} offers {recipient} a deal: {terms}.", {
      proposer: houseName(entry.proposer), recipient: houseName(entry.recipient), terms,
    });
  }
  if (entry.kind === "deal_answered") {
    const who = { house: houseName(entry.by), proposer: houseName(entry.proposer) };
    if (entry.answer === "accept") return t("{house} accepts the deal offered by {proposer}.", who);
    if (entry.answer === "counter") {
      return t("{house} answers the deal offered by {proposer} with another offer.", who);
    }
    return t("{house} declines the deal offered by {proposer}.", who);
  }
  const values = {
    house: houseName(entry.house),
    other: listed((entry.with || []).map(houseName)),
    round: entry.round,
    terms,
  };
  if (entry.kind === "deal_kept") {
    return t("{house} kept its word in the deal of round {round} with {other}: {terms}.", values);
  }
  return t("{house} broke its word in the deal of round {round} with {other}: {terms}.", values);
}

const TALK = new Set(["deal_proposed", "deal_answered"]);

/** Where a deal log entry of round `round` goes in the board's log: talks before that round's
 * orders are revealed, verdicts at the end of the round (before the next round's first line). */
function anchorFor(list, entry) {
  const begins = (round) => list.querySelector(`:scope > .log-round[data-round="${round}"]`);
  const next = begins(entry.round + 1); // "Round {round + 1} begins."
  if (!TALK.has(entry.kind)) return next;
  const start = begins(entry.round);
  for (let item = start ? start.nextElementSibling : null; item && item !== next; item = item.nextElementSibling) {
    if (item.classList.contains("log-orders_revealed")) return item;
  }
  return next;
}

/** Put every entry of the deal log that the board's log lacks at its place (the board's log
 * is rebuilt on a new connection; the entries are put back). Nothing before the board's log has
 * its history: a line with no round to go by would show out of place. */
function showDealLog(list, entries) {
  if (!list || !list.dataset.history) return;
  const shown = new Set([...list.querySelectorAll(":scope > .log-deal")].map((li) => li.dataset.dealKey));
  let added = false;
  for (const entry of entries || []) {
    if (shown.has(entry.key)) continue;
    const item = h(
      "li",
      { class: `log-entry log-deal log-${entry.kind}`, "data-testid": "log-deal", "data-deal-key": entry.key, "data-kind": entry.kind },
      dealLogText(entry),
    );
    const anchor = anchorFor(list, entry);
    if (anchor) list.insertBefore(item, anchor);
    else {
      list.append(item);
      added = true;
    }
  }
  if (added) list.scrollTop = list.scrollHeight;
}

/** The status of an offer in words. */
function offerStatus(status) {
  if (status === "accept") return t("accepted");
  if (status === "decline") return t("declined");
  if (status === "counter") return t("answered with another offer");
  if (status === "lapsed") return t("lapsed");
  return t("waiting for an answer");
}

/** The verdict of a deal in words (kept, broken by whom, or still in force). */
function dealStatus(deal) {
  if (deal.status === "kept") return t("kept");
  if (deal.status === "broken") return t("broken by {house}", { house: houseName(deal.breaker) });
  return t("in force");
}

class DealsPanel {
  constructor(root) {
    const body = document.body;
    this.root = root;
    this.gameId = body.dataset.game;
    this.house = body.dataset.house;
    this.base = `/games/${encodeURIComponent(this.gameId)}/deals/${encodeURIComponent(this.house)}`;
    this.form = root.querySelector("#deals-form");
    this.log = document.getElementById("log");
    this.error = root.querySelector("#deals-error");
    this.areaLabel = root.querySelector(".deals-area");
    this.form.kind.addEventListener("change", () => this.showArea());
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
    this.last = null;
  }

  showArea() {
    this.areaLabel.hidden = !AREA_TERMS.has(this.form.kind.value);
  }

  fillChoices(message) {
    const to = this.form.to;
    const chosen = to.value;
    fill(to, ...message.houses.map((id) => h("option", { value: id }, houseName(id))));
    if (message.houses.includes(chosen)) to.value = chosen;
    const area = this.form.area;
    const picked = area.value;
    const areas = Object.keys(rawContent().areas || {});
    areas.sort((a, b) => areaName(a).localeCompare(areaName(b)));
    fill(area, ...areas.map((id) => h("option", { value: id }, areaName(id))));
    if (picked) area.value = picked;
    this.showArea();
  }

  async request(path, payload) {
    const options = payload === undefined ? {} : {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(payload),
    };
    const response = await fetch(this.base + path, { credentials: "same-origin", ...options });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw Object.assign(new Error(data.error || String(response.status)), { code: data.code });
    return data;
  }

  async refresh() {
    try {
      this.render(await this.request(""));
    } catch {
      // the panel keeps what it showed; the next state refreshes it again
    }
  }

  async send() {
    const kind = this.form.kind.value;
    const term = AREA_TERMS.has(kind) ? { kind, area: this.form.area.value } : { kind };
    await this.act("/proposals", { to: this.form.to.value, term }, t("The offer could not be sent."));
  }

  async answer(proposal, answer) {
    await this.act("/replies", { proposal, answer }, t("The answer could not be sent."));
  }

  async act(path, payload, failure) {
    this.error.hidden = true;
    try {
      this.render(await this.request(path, payload));
    } catch (error) {
      // a refusal says why (in English the server's own words); a lost request only that
      this.error.textContent = error.code ? errorText({ code: error.code, message: error.message }) : failure;
      this.error.hidden = false;
    }
  }

  render(message) {
    this.last = message;
    this.fillChoices(message);
    showDealLog(this.log, message.log);
    const me = this.house;
    const describe = (terms) => terms.map(describeTerm).join("; ");
    const incoming = message.proposals.filter((p) => p.recipient === me);
    const outgoing = message.proposals.filter((p) => p.proposer === me);
    const empty = () => h("li", { class: "deals-empty" }, t("None yet"));
    fill(this.root.querySelector("#deals-incoming"), ...(incoming.length ? incoming.map((p) => h(
      "li",
      { "data-testid": `deals-offer-${p.id}`, "data-status": p.status },
      t("{house} offers: {terms}", { house: houseName(p.proposer), terms: describe(p.terms) }),
      p.status === "open"
        ? h(
          "span",
          { class: "deals-buttons" },
          h("button", { type: "button", class: "button button-small", "data-testid": `deals-accept-${p.id}`, onclick: () => this.answer(p.id, "accept") }, t("Accept")),
          h("button", { type: "button", class: "button button-small", "data-testid": `deals-decline-${p.id}`, onclick: () => this.answer(p.id, "decline") }, t("Decline")),
        )
        : h("span", { class: "deals-status", "data-status": p.status }, offerStatus(p.status)),
    )) : [empty()]));
    fill(this.root.querySelector("#deals-outgoing"), ...(outgoing.length ? outgoing.map((p) => h(
      "li",
      { "data-testid": `deals-offer-${p.id}`, "data-status": p.status },
      t("To {house}: {terms}", { house: houseName(p.recipient), terms: describe(p.terms) }),
      h("span", { class: "deals-status", "data-status": p.status }, offerStatus(p.status)),
    )) : [empty()]));
    fill(this.root.querySelector("#deals-made"), ...(message.deals.length ? message.deals.map((d) => h(
      "li",
      { "data-testid": `deals-deal-${d.id}`, "data-status": d.status },
      t("With {house}: {terms}", { house: houseName(d.houses.find((x) => x !== me)), terms: describe(d.terms) }),
      h("span", { class: "deals-status", "data-status": d.status }, dealStatus(d)),
    )) : [empty()]));
  }
}

let panel = null;

/** The areas among `destinations` where a march (`kind` "march") or a raid ("raid") of `house`
 * now breaks one of its deals, each with the words of the promise it breaks, as the server
 * judged them (fresh GET of the seat's deals message, `promises[kind]`); none if the deals
 * cannot be read (the act is not held up). */
export async function promisesBroken(house, destinations, kind = "march") {
  if (!panel || house !== panel.house) return [];
  let message;
  try {
    message = await panel.request("");
  } catch {
    return [];
  }
  panel.render(message);
  const forbidden = (message.promises || {})[kind] || {};
  const deals = new Map(message.deals.map((d) => [d.id, d]));
  return destinations
    .filter((area) => forbidden[area])
    .map((area) => ({
      area,
      promises: forbidden[area].map((id) => (deals.get(id)?.terms || []).map(describeTerm).join("; ")),
    }));
}

const root = document.getElementById("deals");
if (root) {
  await loadCatalog(document.documentElement.lang || "en"); // the board's own load, shared
  panel = new DealsPanel(root);
  new MutationObserver(() => panel.refresh()).observe(document.body, {
    attributes: true,
    attributeFilter: ["data-state-id"],
  });
  if (panel.log) {
    new MutationObserver(() => showDealLog(panel.log, panel.last?.log)).observe(panel.log, { childList: true });
  }
  panel.refresh();
}
