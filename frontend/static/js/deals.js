// The board's deals panel (partials/deals.html; issue 15 point 4): offer another house one
// promise for this round, accept or decline the offers made to you, and see your deals and
// whether they were kept. Everything comes from GET /games/{id}/deals/{house}, which holds only
// this seat's own offers and deals; the panel refreshes whenever the board shows a new state.
import { areaName, houseName, rawContent, trackName } from "./content.js";
import { fill, h } from "./dom.js";
import { loadCatalog, t } from "./i18n.js";

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
    if (!response.ok) throw new Error(data.code || String(response.status));
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
    } catch {
      this.error.textContent = failure;
      this.error.hidden = false;
    }
  }

  render(message) {
    this.last = message;
    this.fillChoices(message);
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

const root = document.getElementById("deals");
if (root) {
  await loadCatalog(document.documentElement.lang || "en"); // the board's own load, shared
  const panel = new DealsPanel(root);
  new MutationObserver(() => panel.refresh()).observe(document.body, {
    attributes: true,
    attributeFilter: ["data-state-id"],
  });
  panel.refresh();
}
