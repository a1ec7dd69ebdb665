// A lobby's settings as badges (issue 40): ranked, by turns, anonymous and the minimum
// reliability a person needs to take a seat (docs/online-ratings.md, online-pace.md,
// online-moderation.md). Shown on the lobby list (lobbies.js) and the lobby page (below).
import { h } from "../dom.js";
import { loadCatalog, t } from "../i18n.js";
import { get } from "./api.js";

/** The badges of `lobby` (GET /api/lobbies' JSON), each a <span> with its testid. */
export function lobbyBadges(lobby) {
  const settings = lobby.settings || {};
  const badges = [];
  const badge = (kind, text, title) =>
    badges.push(h("span", { class: "lobby-badge", title, dataset: { testid: `badge-${kind}`, badge: kind } }, text));
  if (settings.ranked)
    badge("ranked", t("Ranked"), t("Finished ranked games move the ratings of the leaderboard."));
  if (settings.pace?.mode === "by_turns")
    badge("by-turns", t("By turns"), t("A deadline per decision, played over days."));
  if (settings.anonymous)
    badge("anonymous", t("Anonymous"), t("Names stay hidden until the game ends."));
  if (settings.min_reliability > 0)
    badge(
      "min-reliability",
      t("Reliability {percent} % or more", { percent: settings.min_reliability }),
      t("Only players who finish at least this share of their online games may take a seat."),
    );
  return badges;
}

/** The lobby page: its settings never change, so read them once. */
async function lobbyPage() {
  const slot = document.getElementById("lobby-badges");
  const lobbyId = document.body.dataset.lobby;
  if (!slot || !lobbyId) return;
  await loadCatalog(document.documentElement.lang || "en");
  try {
    const data = await get(`/api/lobbies/${encodeURIComponent(lobbyId)}`);
    const badges = lobbyBadges(data.lobby);
    slot.replaceChildren(...badges);
    slot.hidden = !badges.length;
  } catch {
    /* the lobby page shows the refusal itself (lobby.js) */
  }
}

lobbyPage();
