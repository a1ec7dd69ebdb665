// The guided first game's box on the board (issue 37 point 1; server/guide.py): it asks the
// server for the step that fits the game now (`GET /games/{id}/guide/{house}`), outlines the
// element of the real prompt the person should use next and says why; the prompts stay as
// they are. A step's clicks are done once their `done` selector matches (or their input shows
// `equals`); an explanation waits for the box's own "Next" (remembered per game in this
// browser). On any other game the server answers `{"guide": false}` and the box never shows.

import { h } from "./dom.js";

const SPOT = "guide-spot";
const AREA = "guide-area";
const game = document.body.dataset.game || "";
const house = document.body.dataset.house || "";
const seenKey = `westeros-guide-seen:${game}`;

let step = null;
let box = null;
let current = null;
let pending = null;

function seen() {
  try {
    return new Set(JSON.parse(localStorage.getItem(seenKey) || "[]"));
  } catch {
    return new Set();
  }
}

function markSeen(id) {
  const ids = seen();
  ids.add(id);
  localStorage.setItem(seenKey, JSON.stringify([...ids]));
}

function isDone(click, index) {
  if (click.ack) return seen().has(`${step.step}:${index}`);
  if (click.value_of) return document.querySelector(click.value_of)?.value === click.equals;
  return Boolean(click.done && document.querySelector(click.done));
}

function clearSpots() {
  for (const el of document.querySelectorAll(`.${SPOT}, .${AREA}`)) {
    el.classList.remove(SPOT, AREA);
  }
}

function makeBox(labels) {
  const next = h("button", { type: "button", class: "button button-primary", id: "guide-next" }, labels.next);
  next.addEventListener("click", () => {
    if (current?.click.ack) markSeen(`${step.step}:${current.index}`);
    render();
  });
  const el = h(
    "aside",
    { class: "guide-box", id: "guide", "data-testid": "guide", role: "status", "aria-live": "polite" },
    h("p", { class: "guide-title" }, labels.title),
    h("p", { class: "guide-progress", "data-field": "progress" }),
    h("p", { class: "guide-text", "data-field": "text" }),
    h(
      "div",
      { class: "guide-actions" },
      next,
      h("a", { class: "button button-small", href: "/", "data-testid": "guide-leave" }, labels.leave),
    ),
  );
  document.body.append(el);
  return el;
}

/** Show the step: the first click not yet done, its words and its element outlined. */
function render() {
  if (!step) return;
  box ??= makeBox(step.labels);
  clearSpots();
  const clicks = step.clicks || [];
  const index = clicks.findIndex((click, i) => !isDone(click, i));
  const click = index >= 0 ? clicks[index] : null;
  current = click ? { click, index } : null;
  box.querySelector("[data-field=progress]").textContent = step.complete
    ? step.labels.complete
    : click?.progress || "";
  box.querySelector("[data-field=text]").textContent = click ? click.text : step.text;
  box.querySelector("#guide-next").hidden = !click?.ack;
  box.dataset.complete = step.complete ? "true" : "false";
  box.dataset.step = step.step;
  box.dataset.topic = click?.topic || "";
  const target = click ? document.querySelector(click.target) : null;
  if (click?.spot) document.querySelector(click.spot)?.classList.add(AREA);
  if (target) {
    target.classList.add(SPOT);
    target.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
  const value = click?.value_of ? document.querySelector(click.value_of)?.value ?? "" : "";
  box.dataset.key = `${step.state_id}:${step.step}:${index}:${value}:${target ? "on" : "off"}`;
}

async function refresh() {
  const url = `/games/${encodeURIComponent(game)}/guide/${encodeURIComponent(house)}`;
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) return;
  const data = await response.json();
  if (!data.guide) {
    observer.disconnect();
    return;
  }
  step = data;
  render();
}

/** Ask again shortly after the prompt or the log changed (coalescing bursts of changes); a
 * request that fails is asked again at the next change. */
function soon() {
  clearTimeout(pending);
  pending = setTimeout(() => refresh().catch(() => {}), 120);
}

const observer = new MutationObserver(soon);
for (const id of ["prompt", "log"]) {
  const el = document.getElementById(id);
  if (el) observer.observe(el, { childList: true, subtree: true, characterData: true });
}
document.addEventListener("click", () => setTimeout(render, 0), true);
document.addEventListener("input", () => setTimeout(render, 0), true);
soon();
