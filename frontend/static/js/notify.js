// Tells the player that a decision waits for them (issue 13.7): the page (and desktop window)
// title changes until it is answered, a short sound plays (volume and mute from the settings),
// and a desktop notification appears while the window is in the background.
//
// It follows the board through the page's own state: board.js writes the kind of the decision
// it shows to <body data-prompt> ("" while waiting) after every view from the seat's socket.
// A decision already waiting when the page opens changes the title only.
//
// An online table's board (<body data-lobby>) announces turns the same way, but the online
// server keeps no preferences: there the defaults apply and the settings panel is hidden.
import { t } from "./i18n.js";
import { askNotificationPermission, canNotify, preferences, startSettings } from "./settings.js";

const SOUND_URL = "/static/sounds/decision.wav";
const NOTIFICATION_TAG = "westeros-decision";

const online = Boolean(document.body.dataset.lobby);
const baseTitle = document.title;
const sound = Object.assign(new Audio(SOUND_URL), { preload: "auto" });
sound.id = "notify-sound";
sound.dataset.testid = "notify-sound";
sound.hidden = true;

let shown = null; // the desktop notification on screen, if any
let changing = false; // the person reopened a committed decision (take-back): nothing to tell
let changingKind = null;

/** The page title (the desktop app copies it to its window: westeros.window_title). */
function showTitle(title) {
  document.title = title;
}

/** Play the sound once at the chosen volume, unless muted. The element counts the times it was
 * started (data-rung) and the times the browser began playing it (data-played). */
function ring() {
  const { muted, volume } = preferences();
  if (muted || volume <= 0) return;
  sound.volume = Math.min(1, volume / 100);
  sound.currentTime = 0;
  sound.dataset.rung = String(Number(sound.dataset.rung || 0) + 1);
  sound
    .play()
    .then(() => {
      sound.dataset.played = String(Number(sound.dataset.played || 0) + 1);
    })
    .catch(() => {
      // The browser allows sound only after the person has used the page: nothing to do.
    });
}

function notify(title) {
  if (!preferences().notifications || !document.hidden) return;
  if (!canNotify() || Notification.permission !== "granted") return;
  shown?.close();
  shown = new Notification(title, {
    body: t("A decision waits for you."),
    tag: NOTIFICATION_TAG,
    icon: "/static/icons/favicon.svg",
  });
  shown.addEventListener("click", () => {
    window.focus();
    shown?.close();
  });
}

function answered() {
  showTitle(baseTitle);
  shown?.close();
  shown = null;
}

/** The board shows decision `kind` ("" none) after `before` (null: this is its first view). */
function follow(kind, before) {
  if (changing && (kind === "" || (changingKind !== null && kind !== changingKind))) {
    changing = false;
    changingKind = null;
  } else if (changing) {
    changingKind = kind;
    return;
  }
  if (!kind) {
    answered();
    return;
  }
  const title = t("● Your move — {title}", { title: baseTitle });
  showTitle(title);
  if (before === null || kind === before) return;
  ring();
  notify(title);
}

/** Follow the board, wire the settings panel and ask for notifications on a first gesture. */
function start() {
  document.body.append(sound);
  new MutationObserver((records) => {
    // Each record holds the value before it; the last change's value is the attribute's now.
    const values = [...records.map((record) => record.oldValue), document.body.dataset.prompt];
    records.forEach((_, i) => follow(values[i + 1] ?? "", values[i]));
  }).observe(document.body, {
    attributes: true,
    attributeFilter: ["data-prompt"],
    attributeOldValue: true,
  });
  document.addEventListener(
    "click",
    (event) => {
      if (event.target.closest?.("[data-testid^=take-back]")) changing = true;
    },
    true,
  );
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) shown?.close();
  });
  // Ask once, on the person's first click or key, if notifications are on and not decided.
  for (const type of ["pointerdown", "keydown"]) {
    document.addEventListener(
      type,
      () => {
        if (preferences().notifications) askNotificationPermission();
      },
      { once: true },
    );
  }
  if (online) document.getElementById("settings-open")?.setAttribute("hidden", "");
  else startSettings(ring);
}

start();
