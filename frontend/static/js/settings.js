// The player's board preferences (issue 13.7) and the settings panel that changes them: sound
// volume and mute, desktop notifications, the AI's pace. The local core keeps them
// (GET/PUT /settings.json, checked there); the panel saves every change at once, one save after
// the other in the order they were made (the form is aria-busy meanwhile), and shows the stored
// values again once no save is still on its way (so a quick second click is not undone by the
// first save's answer) or when the core refuses one.
import { t } from "./i18n.js";

const SETTINGS_URL = "/settings.json";
const DEFAULTS = { volume: 70, muted: false, notifications: true, ai_pace: null };

let current = { ...DEFAULTS };
const listeners = [];
let queue = Promise.resolve();
let unsaved = 0;

/** The preferences in effect now. */
export function preferences() {
  return current;
}

/** Call `listener(preferences)` after every change (and once they are loaded). */
export function onPreferences(listener) {
  listeners.push(listener);
}

function changed(next) {
  current = { ...DEFAULTS, ...next };
  for (const listener of listeners) listener(current);
}

async function request(init) {
  const response = await fetch(SETTINGS_URL, { credentials: "same-origin", ...init });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

/** Load the stored preferences (the defaults if the core cannot be reached). */
export async function loadPreferences() {
  try {
    changed(await request({}));
  } catch {
    changed(current);
  }
  return current;
}

/** Is a change still on its way to the core? */
function saving() {
  return unsaved > 0;
}

/** Save `change` (some fields) after the saves made before it; resolves to the preferences
 * stored, rejects with the reason. */
export function savePreferences(change) {
  unsaved += 1;
  const put = () =>
    request({
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(change),
    });
  const done = queue.then(put).finally(() => {
    unsaved -= 1;
  });
  queue = done.catch(() => undefined);
  return done.then((stored) => {
    changed(stored);
    return stored;
  });
}

/** Can this page show desktop notifications at all? */
export function canNotify() {
  return typeof window.Notification === "function";
}

/** Ask for permission to show notifications (only ever from a person's click or key). */
export async function askNotificationPermission() {
  if (!canNotify() || Notification.permission !== "default") return;
  try {
    await Notification.requestPermission();
  } catch {
    // An old browser without the promise form: it asks no more.
  }
  showPermission();
}

function showPermission() {
  const note = document.getElementById("settings-permission");
  if (!note) return;
  const state = canNotify() ? Notification.permission : "unsupported";
  note.dataset.permission = state;
  note.hidden = state === "granted" || state === "default";
  note.textContent =
    state === "denied"
      ? t("This browser blocks notifications from Westeros; allow them in its site settings.")
      : t("This window cannot show desktop notifications.");
}

function showIn(form, prefs) {
  form.elements.muted.checked = prefs.muted;
  form.elements.volume.value = String(prefs.volume);
  form.elements.volume.disabled = prefs.muted;
  form.elements["volume-shown"].value = `${prefs.volume}%`;
  form.elements.notifications.checked = prefs.notifications;
  for (const radio of form.querySelectorAll("input[name=ai_pace]")) {
    radio.checked = radio.value === prefs.ai_pace;
  }
  document.getElementById("settings-pace-unset").hidden = prefs.ai_pace !== null;
}

function bindPanel(onTrySound) {
  const dialog = document.getElementById("settings");
  const form = document.getElementById("settings-form");
  if (!dialog || !form) return;
  const error = document.getElementById("settings-error");
  onPreferences((prefs) => {
    if (!saving()) showIn(form, prefs);
  });
  const open = document.getElementById("settings-open");
  open?.addEventListener("click", () => {
    showIn(form, current);
    showPermission();
    dialog.showModal();
  });
  open?.removeAttribute("disabled"); // the page serves it disabled until it opens something
  form.addEventListener("submit", (event) => event.preventDefault());
  form.elements.volume.addEventListener("input", () => {
    form.elements["volume-shown"].value = `${form.elements.volume.value}%`;
  });
  form.addEventListener("change", async (event) => {
    const field = event.target;
    const change =
      field.name === "volume"
        ? { volume: Number(field.value) }
        : field.name === "ai_pace"
          ? { ai_pace: field.value }
          : { [field.name]: field.checked };
    if (change.notifications) askNotificationPermission();
    form.setAttribute("aria-busy", "true");
    try {
      await savePreferences(change);
      error.hidden = true;
    } catch (reason) {
      error.textContent = t("The setting could not be saved: {reason}", {
        reason: reason.message,
      });
      error.hidden = false;
      if (!saving()) showIn(form, current);
    } finally {
      if (!saving()) form.removeAttribute("aria-busy");
    }
  });
  document.getElementById("settings-try-sound")?.addEventListener("click", () => onTrySound());
}

/** Load the preferences and wire the settings panel; `onTrySound` plays the sound once. */
export async function startSettings(onTrySound) {
  bindPanel(onTrySound);
  return loadPreferences();
}
