// "Since your last turn" (issue 40; online/catchup.html, docs/online-catchup.md): once the
// board is loaded, what happened in this game since this person last had it open, from
// GET /games/{id}/catchup/{house} (only what this seat may see, in the page's language),
// listed by round, each line a link to its step in the seat's replay (a new tab). Close (or
// Escape inside the panel) tells the server how far the panel went
// (POST .../seen?seq=&chat=), so the same lines never come back.
import { houseName } from "../content.js";
import { fill, h } from "../dom.js";
import { loadCatalog, t } from "../i18n.js";

const root = document.getElementById("catchup");
const { game, house } = document.body.dataset;
const base = `/games/${encodeURIComponent(game || "")}/catchup/${encodeURIComponent(house || "")}`;

/** A deal item in the deals panel's own words (deals.js). */
async function dealText(item) {
  const { describeTerm } = await import("../deals.js");
  const terms = (item.proposal || item.deal).terms.map(describeTerm).join("; ");
  if (item.proposal) return t("{house} offers: {terms}", { house: houseName(item.proposal.proposer), terms });
  const other = item.deal.houses.find((x) => x !== house);
  return t("With {house}: {terms}", { house: houseName(other), terms });
}

async function line(item) {
  const text = item.kind === "deal" ? await dealText(item) : item.text;
  const link = h("a", { href: item.url, target: "_blank", rel: "noopener", dataset: { step: String(item.seq) } }, text);
  const details = (item.details || []).map((detail) => h("li", {}, detail));
  return h(
    "li",
    { dataset: { kind: item.kind, testid: "catchup-item" } },
    link,
    details.length ? h("ul", { class: "catchup-details" }, details) : null,
  );
}

async function render(message) {
  const rounds = new Map();
  for (const item of message.items) {
    if (!rounds.has(item.round)) rounds.set(item.round, []);
    rounds.get(item.round).push(await line(item));
  }
  const sections = [...rounds].map(([round, items]) =>
    h(
      "section",
      { class: "catchup-round", "aria-labelledby": `catchup-round-${round}` },
      h("h3", { id: `catchup-round-${round}` }, t("Round {round}", { round })),
      h("ul", { class: "catchup-list" }, items),
    ),
  );
  fill(document.getElementById("catchup-rounds"), ...sections);
}

function close(message) {
  if (root.hidden) return;
  const inside = root.contains(document.activeElement);
  root.hidden = true;
  if (inside) document.getElementById("map-pane")?.focus();
  const query = `seq=${encodeURIComponent(message.upto)}&chat=${encodeURIComponent(message.chat_upto)}`;
  fetch(`${base}/seen?${query}`, { method: "POST", credentials: "same-origin" }).catch(() => {});
}

async function main() {
  await loadCatalog(document.documentElement.lang || "en");
  let message;
  try {
    const response = await fetch(base, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return;
    message = await response.json();
  } catch {
    return;
  }
  if (!message.items || !message.items.length) return;
  await render(message);
  document.getElementById("catchup-close").addEventListener("click", () => close(message));
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close(message);
  });
  root.hidden = false;
}

if (root && game && house) main();
