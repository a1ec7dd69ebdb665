// The start screen: only the houses of the chosen player count can be picked, and only their
// AI seats offer a personality (the chosen house plays none); saved games show when they were
// last played, relative and in the reader's own format; "Delete…" asks for confirmation in a
// dialog (without scripts the link opens a confirmation page instead); saved games' house marks
// get their colours.
import { loadSprite } from "./dom.js";

function inCount(label, players) {
  const counts = (label.dataset.counts || "").split(" ").filter(Boolean);
  return !counts.length || counts.includes(players);
}

function update(form) {
  const players = form.querySelector("input[name=players]:checked")?.value;
  for (const label of form.querySelectorAll(".start-house[data-house]")) {
    const available = inCount(label, players);
    label.classList.toggle("is-unavailable", !available);
    const input = label.querySelector("input");
    input.disabled = !available;
    if (!available && input.checked)
      form.querySelector("input[name=house][value=random]").checked = true;
  }
  const you = form.querySelector("input[name=house]:checked")?.value;
  for (const label of form.querySelectorAll(".start-personality[data-house]")) {
    const available = inCount(label, players);
    const mine = label.dataset.house === you;
    label.classList.toggle("is-unavailable", !available);
    label.classList.toggle("is-you", available && mine);
    label.querySelector("select").disabled = !available || mine;
  }
}

const UNITS = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

/** "5 minutes ago" in the reader's language: the largest unit that fits. */
function relative(format, moment) {
  const seconds = Math.round((moment.getTime() - Date.now()) / 1000);
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) || UNITS.at(-1);
  return format.format(Math.round(seconds / size), unit);
}

function localDates(lang) {
  let absolute;
  let ago;
  try {
    const locale = lang.replace("_", "-");
    absolute = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
    ago = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  } catch {
    return;
  }
  for (const time of document.querySelectorAll("time[datetime]")) {
    const moment = new Date(time.getAttribute("datetime"));
    if (Number.isNaN(moment.getTime())) continue;
    time.textContent = `${relative(ago, moment)} (${absolute.format(moment)})`;
  }
}

function confirmDeletes() {
  const dialog = document.getElementById("delete-dialog");
  if (!dialog || typeof dialog.showModal !== "function") return;
  const form = dialog.querySelector("form");
  dialog.querySelector("[data-close]")?.addEventListener("click", () => dialog.close());
  for (const link of document.querySelectorAll("a[data-delete]")) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      const row = link.closest(".saved-game");
      const parts = [".saved-title", ".saved-round", ".saved-date"]
        .map((selector) => row?.querySelector(selector)?.textContent.trim())
        .filter(Boolean);
      dialog.querySelector(".delete-game").textContent = parts.join(" · ");
      form.action = link.getAttribute("href");
      form.elements.confirm.value = link.dataset.delete;
      dialog.showModal();
      dialog.querySelector("[data-close]")?.focus();
    });
  }
}

/** Colour each saved game's house mark (set here, not in a style attribute: the page's
 * Content-Security-Policy allows no inline style). */
function houseMarks() {
  for (const mark of document.querySelectorAll("svg[data-mark]")) {
    const house = mark.dataset.mark;
    mark.style.setProperty("--fill", `var(--house-${house}, #bbb)`);
    mark.style.setProperty("--ink", `var(--ink-${house}, #1d1d1d)`);
  }
}

const form = document.getElementById("new-game");
if (form) {
  loadSprite();
  form.addEventListener("change", () => update(form));
  update(form);
}
houseMarks();
localDates(document.documentElement.lang || "en");
confirmDeletes();
