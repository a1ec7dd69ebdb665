// The online front page: the list of open and running games, and the create form.
import { h } from "../dom.js";
import { loadCatalog, t, tn } from "../i18n.js";
import { enableForm, ensurePlayer, get, identityForm, post, showError } from "./api.js";
import { lobbyBadges } from "./badges.js";

async function refresh() {
  const list = document.getElementById("games");
  try {
    const data = await get("/api/lobbies");
    list.replaceChildren(
      ...data.lobbies.map((lobby) => {
        const people = lobby.seats.filter((s) => s.player).length;
        const status = lobby.status === "open" ? t("open") : t("running");
        // the seats a game by turns offers to a new person (issue 40)
        const free = lobby.seats.filter((s) => s.open && !s.player).length;
        const offered = lobby.status === "running" ? free : 0;
        return h(
          "li",
          { dataset: { testid: "game" } },
          h("a", { href: `/lobbies/${encodeURIComponent(lobby.id)}` }, lobby.name),
          ` · ${status} · `,
          t("{people} of {seats} seats taken", { people, seats: lobby.seats.length }),
          offered
            ? ` · ${tn(
                "{n} seat offered: open the game to take it",
                "{n} seats offered: open the game to take them",
                offered,
              )}`
            : "",
          h("span", { class: "lobby-badges" }, ...lobbyBadges(lobby)),
        );
      }),
    );
    document.getElementById("no-games").hidden = data.lobbies.length > 0;
  } catch (error) {
    showError("create-error", error);
  }
}

/** Show the settings of the pace chosen (live: the clock; by turns: deadlines, issue 40). */
function showPace(form) {
  const pace = form.elements.pace.value;
  for (const part of form.querySelectorAll("[data-pace]")) {
    part.hidden = part.dataset.pace !== pace;
    part.style.display = part.hidden ? "none" : "";
  }
  const zone = form.elements.time_zone;
  if (!zone.dataset.guessed) {
    zone.dataset.guessed = "1";
    zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  }
}

/** The pace fields of POST /api/lobbies (a game by turns has no turn clock). */
function paceSettings(form) {
  const els = form.elements;
  if (els.pace.value !== "by_turns") return { pace: "live" };
  return {
    pace: "by_turns",
    clock_seconds: 0,
    deadline_seconds: Math.max(1, Math.round(Number(els.deadline_hours.value) * 3600)),
    skip_weekends: els.skip_weekends.checked,
    time_zone: els.time_zone.value.trim() || "UTC",
    vacation_days: Number(els.vacation_days.value),
    max_missed: Number(els.max_missed.value),
    after_missed: els.after_missed.value,
  };
}

/** Link this browser's player to their profile (issue 40), once the server knows them. */
function showProfile(player) {
  if (!player?.id) return;
  document.getElementById("profile-link").href = `/players/${encodeURIComponent(player.id)}`;
  document.getElementById("profile-item").hidden = false;
}

async function main() {
  await loadCatalog(document.documentElement.lang || "en");
  showProfile(await ensurePlayer().catch(() => null));
  identityForm(showProfile);
  const form = document.getElementById("create");
  showPace(form);
  form.addEventListener("change", () => showPace(form));
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
        ...paceSettings(form),
        spectators_hear: form.elements.spectators_hear.checked,
        anonymous: form.elements.anonymous.checked, // names hidden until the end (issue 40)
        ranked: form.elements.ranked.checked, // ratings and reliability (issue 40)
        min_reliability: Number(form.elements.min_reliability.value) || 0,
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
