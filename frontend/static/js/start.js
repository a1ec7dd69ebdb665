// The new-game screen: only the houses of the chosen player count can be picked.
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

const form = document.getElementById("new-game");
if (form) {
  loadSprite();
  form.addEventListener("change", () => update(form));
  update(form);
}
