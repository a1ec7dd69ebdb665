// The start screen: the player counts are those the chosen options can set up (asked of the
// server when an option or plugin changes), options needing another one are offered only with
// it, only the houses of the chosen player count can be picked, and only their AI seats offer a
// personality (the chosen house plays none); saved games show when they were
// last played, relative and in the reader's own format; "Delete…" asks for confirmation in a
// dialog (without scripts the link opens a confirmation page instead); saved games' house marks
// get their colours.
import { loadSprite } from "./dom.js";

/** The options that depend on another one are offered only while it is chosen. */
function requiredOptions(form) {
  for (const input of form.querySelectorAll("input[data-requires]")) {
    const needed = form.elements.namedItem(input.dataset.requires);
    const on = Boolean(needed?.checked && !needed.disabled);
    input.closest("label").classList.toggle("is-unavailable", !on);
    input.disabled = !on;
    if (!on) input.checked = false;
  }
}

/** Only the player counts the chosen options can set up are offered (the largest is chosen
 * when the one chosen goes), and only the houses of the chosen count can be picked. */
function update(form, setups) {
  requiredOptions(form);
  const counts = form.querySelectorAll("input[name=players]");
  for (const radio of counts) {
    const offered = radio.value in setups;
    radio.closest("label").classList.toggle("is-unavailable", !offered);
    radio.disabled = !offered;
  }
  if (!form.querySelector("input[name=players]:checked:enabled")) {
    const last = [...counts].filter((radio) => !radio.disabled).at(-1);
    if (last) last.checked = true;
  }
  const players = form.querySelector("input[name=players]:checked")?.value;
  const seated = new Set(setups[players] || []);
  for (const label of form.querySelectorAll(".start-house[data-house]")) {
    const available = seated.has(label.dataset.house);
    label.classList.toggle("is-unavailable", !available);
    const input = label.querySelector("input");
    input.disabled = !available;
    if (!available && input.checked)
      form.querySelector("input[name=house][value=random]").checked = true;
  }
  const you = form.querySelector("input[name=house]:checked")?.value;
  for (const label of form.querySelectorAll(".start-personality[data-house]")) {
    const available = seated.has(label.dataset.house);
    const mine = label.dataset.house === you;
    label.classList.toggle("is-unavailable", !available);
    label.classList.toggle("is-you", available && mine);
    label.querySelector("select").disabled = !available || mine;
  }
}

/** Ask the server which counts and houses the form's options offer (the Ruleset those
 * options make: a plugin's setups come and go with its option). */
async function choices(form) {
  const query = new URLSearchParams();
  for (const [key, value] of new FormData(form)) {
    if (typeof value === "string") query.append(key, value);
  }
  const response = await fetch(`${form.dataset.choices}?${query}`, {
    credentials: "same-origin",
  });
  if (!response.ok) throw new Error(`${form.dataset.choices}: ${response.status}`);
  return (await response.json()).setups;
}

function newGameForm(form) {
  let setups = JSON.parse(form.dataset.setups || "{}");
  let asked = 0;
  const boxes = () => form.querySelectorAll("label[data-option] input, input[name=plugin]");
  const refresh = async () => {
    requiredOptions(form);
    const mine = ++asked;
    const answer = await choices(form);
    if (mine !== asked) return;
    setups = answer;
    update(form, setups);
  };
  form.addEventListener("change", (event) => {
    if (form.dataset.choices && [...boxes()].includes(event.target)) refresh();
    else update(form, setups);
  });
  update(form, setups);
  // A page restored from the history keeps the boxes ticked before: ask for their choices.
  if (form.dataset.choices && [...boxes()].some((box) => box.checked !== box.defaultChecked))
    refresh();
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
  newGameForm(form);
}
houseMarks();
localDates(document.documentElement.lang || "en");
confirmDeletes();
