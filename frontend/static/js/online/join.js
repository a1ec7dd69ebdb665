// An invite link: the token is read from the fragment (never sent in a URL or a Referer),
// removed from the address bar, posted with the player's key cookie, then the lobby opens.
import { loadCatalog, t } from "../i18n.js";
import { ensurePlayer, identityForm, post, register, showError, storedName } from "./api.js";

async function join(invite) {
  try {
    const data = await post("/api/join", { invite });
    location.replace(`/lobbies/${encodeURIComponent(data.lobby.id)}`);
  } catch (error) {
    showError("join-error", error);
  }
}

async function main() {
  await loadCatalog(document.documentElement.lang || "en");
  const fragment = new URLSearchParams(location.hash.slice(1));
  const invite = fragment.get("invite");
  history.replaceState(null, "", location.pathname);
  if (fragment.get("key") && fragment.get("lobby")) {
    // The hosting app hands its own window the host's key (never in a logged URL).
    try {
      await register(undefined, fragment.get("key"));
      location.replace(`/lobbies/${encodeURIComponent(fragment.get("lobby"))}`);
    } catch (error) {
      showError("join-error", error);
    }
    return;
  }
  if (!invite) {
    showError("join-error", new Error(t("This link has no invite in it.")));
    return;
  }
  identityForm(() => join(invite));
  if (storedName()) {
    await ensurePlayer();
    await join(invite);
  } else {
    showError("join-error", new Error(t("Choose a display name to join.")));
  }
}

main();
