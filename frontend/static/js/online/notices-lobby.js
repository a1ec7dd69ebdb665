// Turn notices on a lobby page (issue 40): this browser's notifications in one click, and
// for the host the game's webhook.
import { loadCatalog, t } from "../i18n.js";
import { enableForm, ensurePlayer, get, post, showError } from "./api.js";
import { currentSubscription, pushSupported, subscribe } from "./push.js";

const lobbyId = document.body.dataset.lobby;
const hookPath = `/api/notices/games/${encodeURIComponent(lobbyId)}/webhook`;

async function pushButton() {
  const button = document.getElementById("notices-push");
  const status = document.getElementById("notices-push-status");
  if (!pushSupported()) return;
  const subscribed = Boolean(await currentSubscription().catch(() => null));
  button.hidden = subscribed;
  status.textContent = subscribed ? t("This browser shows your turn notices.") : "";
  button.addEventListener("click", async () => {
    try {
      await subscribe();
      button.hidden = true;
      status.textContent = t("This browser shows your turn notices.");
    } catch (error) {
      status.textContent =
        error.message === "permission" ? t("Notifications are not allowed for this page in this browser.") : error.message;
    }
  });
}

async function gameWebhook() {
  const form = document.getElementById("notices-game-webhook");
  const status = document.getElementById("notices-game-webhook-status");
  let current;
  try {
    const lobby = await get(`/api/lobbies/${encodeURIComponent(lobbyId)}`);
    if (!lobby.you.host) return;
    current = await get(hookPath);
  } catch {
    return;
  }
  form.elements.url.value = current.url || "";
  form.hidden = false;
  enableForm(form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const saved = await post(hookPath, { url: form.elements.url.value.trim() });
      form.elements.url.value = saved.url || "";
      status.textContent = saved.url ? t("Saved.") : t("This game has no webhook.");
    } catch (error) {
      status.textContent = error.message;
    }
  });
}

async function main() {
  await loadCatalog(document.documentElement.lang || "en");
  await ensurePlayer().catch((error) => showError("lobby-error", error));
  await Promise.all([pushButton(), gameWebhook()]);
}

main();
