// The start screen: only the houses of the chosen player count can be picked; saved games show
// their dates in the reader's own format; "Delete…" asks for confirmation in a dialog (without
// scripts the link opens a confirmation page instead); saved games' house marks get their colours.
import { loadSprite } from "./dom.js";

function update(form) {
  const players = form.querySelector("input[name=players]:checked")?.value;
  for (const label of form.querySelectorAll(".start-house[data-house]")) {
    const counts = (label.dataset.counts || "").split(" ").filter(Boolean);
    const available = !counts.length || counts.includes(players);
    label.classList.toggle("is-unavailable", !available);
    const input = label.querySelector("input");
    input.disabled = !available;
    if (!available && input.checked)
      form.querySelector("input[name=house][value=random]").checked = true;
  }
}

function localDates(lang) {
  let format;
  try {
    format = new Intl.DateTimeFormat(lang.replace("_", "-"), {
      dateStyle: "medium",
      timeStyle: "short",
    });
  } catch {
    return;
  }
  for (const time of document.querySelectorAll("time[datetime]")) {
    const moment = new Date(time.getAttribute("datetime"));
    if (!Number.isNaN(moment.getTime())) time.textContent = format.format(moment);
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
