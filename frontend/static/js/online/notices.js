// The player's turn notices (GET /notices, issue 40): the messages' language, the e-mail
// address and its confirmation, Web Push in this browser and a webhook; every change is saved
// at once through /api/notices.
import { errorText } from "../errors.js";
import { loadCatalog, t } from "../i18n.js";
import { enableForm, ensurePlayer, get, showError } from "./api.js";
import { currentSubscription, pushSupported, subscribe, unsubscribe } from "./push.js";

// This page's own refusals, in the reader's language (errors.js words the others).
const WORDS = {
  "online/no-email": () => t("This server sends no e-mail."),
  "online/too-soon": () => t("A link was sent a moment ago: wait a minute."),
  "online/not-sent": () => t("The e-mail could not be sent: try again later."),
  "online/notice-refused": () => t("This address or URL cannot be used."),
};

/** POST `body` to `path`; the reply's JSON, or an Error worded for the reader. */
async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (response.ok) return data;
  const english = (document.documentElement.lang || "en") === "en";
  const words = WORDS[data.code];
  throw new Error(words && !english ? words() : errorText(data));
}

function failed(error) {
  showError("notices-error", error);
}

function emailStatus(email) {
  if (!email.address) return t("No address yet.");
  if (!email.verified) return t("A confirmation link was sent to {address}: follow it to get notices there.", { address: email.address });
  return email.on
    ? t("Notices go to {address}.", { address: email.address })
    : t("{address} is confirmed; e-mail notices are off.", { address: email.address });
}

async function pushStatus(settings) {
  const status = document.getElementById("push-status");
  const on = document.getElementById("push-subscribe");
  const off = document.getElementById("push-unsubscribe");
  if (!pushSupported()) {
    status.textContent = t("This browser cannot show notifications for this page (it needs a secure https:// address).");
    on.hidden = off.hidden = true;
    return;
  }
  const subscribed = Boolean(await currentSubscription().catch(() => null));
  status.textContent = subscribed
    ? t("This browser shows your turn notices.")
    : t("This browser shows no turn notices.");
  on.hidden = subscribed;
  off.hidden = !subscribed;
  if (settings.push.subscriptions && !subscribed)
    status.textContent += " " + t("Other browsers of yours do: {n}.", { n: settings.push.subscriptions });
}

/** Put the stored language, address and webhook in the fields (on load only: a reply to
 * another change must not undo what the person is typing or has not saved yet). */
function fill(settings) {
  document.getElementById("notices-language").elements.language.value = settings.language;
  const email = document.getElementById("notices-email");
  if (email) email.elements.address.value = settings.email.address || "";
  const hook = document.getElementById("notices-webhook");
  hook.elements.url.value = settings.webhook.url || "";
  hook.elements.on.checked = settings.webhook.on;
}

/** Show the switches and what the settings mean now. */
function show(settings) {
  const email = document.getElementById("notices-email");
  if (email) {
    email.elements.on.checked = settings.email.on;
    email.elements.on.disabled = !settings.email.verified;
    document.getElementById("email-status").textContent = emailStatus(settings.email);
  }
  return pushStatus(settings);
}

async function save(path, body) {
  try {
    showError("notices-error", null);
    await show(await post(path, body));
    return true;
  } catch (error) {
    failed(error);
    return false;
  }
}

async function main() {
  await loadCatalog(document.documentElement.lang || "en");
  await ensurePlayer().catch(() => null);
  let settings;
  try {
    settings = await get("/api/notices");
  } catch {
    document.getElementById("notices-unknown").hidden = false;
    return;
  }
  fill(settings);
  const language = document.getElementById("notices-language");
  enableForm(language);
  language.elements.language.addEventListener("change", () => save("/api/notices", { language: language.elements.language.value }));
  const email = document.getElementById("notices-email");
  if (email) {
    enableForm(email);
    email.addEventListener("submit", (event) => {
      event.preventDefault();
      save("/api/notices/email", { address: email.elements.address.value, language: language.elements.language.value });
    });
    email.elements.on.addEventListener("change", () => save("/api/notices", { email_on: email.elements.on.checked }));
  }
  const hook = document.getElementById("notices-webhook");
  enableForm(hook);
  hook.addEventListener("submit", async (event) => {
    event.preventDefault();
    const saved = await save("/api/notices", { webhook_url: hook.elements.url.value.trim(), webhook_on: hook.elements.on.checked });
    document.getElementById("webhook-status").textContent = saved ? t("Saved.") : "";
  });
  document.getElementById("push-subscribe").addEventListener("click", async () => {
    try {
      await show(await subscribe());
    } catch (error) {
      failed(error.message === "permission" ? new Error(t("Notifications are not allowed for this page in this browser.")) : error);
    }
  });
  document.getElementById("push-unsubscribe").addEventListener("click", async () => {
    try {
      await unsubscribe();
      await show(await get("/api/notices"));
    } catch (error) {
      failed(error);
    }
  });
  await show(settings);
}

main();
