// The app's "Host an online game" form (GET /online/host, online/host.html; issue 40 and
// docs/online.md "Hosting from the app"): only the settings of the pace chosen are shown
// and sent — live: the turn clock and the grace period; by turns: the deadlines
// (partials/pace_fields.html). Without this script the page shows the pace it was given.

/** Show the parts of `form` for the pace chosen; the others are hidden and not sent. */
export function showPace(form) {
  const pace = form.elements.pace.value;
  for (const part of form.querySelectorAll("[data-pace]")) {
    const off = part.dataset.pace !== pace;
    part.hidden = off;
    part.style.display = off ? "none" : ""; // the form's labels are grids: `hidden` alone shows them
    for (const field of part.querySelectorAll("input, select")) field.disabled = off;
  }
}

/** This computer's time zone as the browser names it, when the app could not name it. */
function guessZone(form) {
  const zone = form.elements.time_zone;
  if (!zone.hasAttribute("data-guess-zone")) return;
  zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || zone.value;
}

const form = document.querySelector("form[data-testid=host-form]");
if (form) {
  guessZone(form);
  showPace(form);
  form.addEventListener("change", () => showPace(form));
}
