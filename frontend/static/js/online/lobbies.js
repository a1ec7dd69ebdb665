// The online front page: the list of open and running games, and the create form.
import { h } from "../dom.js";
import { loadCatalog, t } from "../i18n.js";
import { enableForm, ensurePlayer, get, identityForm, post, showError } from "./api.js";

async function refresh() {
  const list = document.getElementById("games");
  try {
    const data = await get("/api/lobbies");
    list.replaceChildren(
      ...data.lobbies.map((lobby) => {
        const people = lobby.seats.filter((s) => s.player).length;
        const status = lobby.status === "open" ? t("open") : t("running");
        return h(
          "li",
          { dataset: { testid: "game" } },
          h("a", { href: `/lobbies/${encodeURIComponent(lobby.id)}` }, lobby.name),
          ` · ${status} · `,
          t("{people} of {seats} seats taken", { people, seats: lobby.seats.length }),
        );
      }),
    );
    document.getElementById("no-games").hidden = data.lobbies.length > 0;
  } catch (error) {
    showError("create-error", error);
  }
}

async function main() {
  await loadCatalog(document.documentElement.lang || "en");
  await ensurePlayer().catch(() => null);
  identityForm();
  const form = document.getElementById("create");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await ensurePlayer();
      const players = Number(form.elements.players.value);
      const data = await post("/api/lobbies", {
        name: form.elements.name.value,
        players,
        ai_level: form.elements.ai_level.value,
        ai_personality: form.elements.ai_personality.value,
        clock_seconds: Number(form.elements.clock.value) * 60,
        grace_seconds: Number(form.elements.grace.value),
        spectators_hear: form.elements.spectators_hear.checked,
      });
      const open = Math.max(1, Math.min(players, Number(form.elements.open.value)));
      const seats = data.lobby.seats.map((s) => s.house);
      const closed = seats.filter((house) => house !== data.you.house).slice(open - 1);
      sessionStorage.setItem(`westeros.invites.${data.lobby.id}`, JSON.stringify(data.invites));
      for (const house of closed)
        await post(`/api/lobbies/${encodeURIComponent(data.lobby.id)}/kick`, { house });
      location.assign(`/lobbies/${encodeURIComponent(data.lobby.id)}`);
    } catch (error) {
      showError("create-error", error);
    }
  });
  enableForm(form);
  await refresh();
  setInterval(refresh, 5000);
}

main();
