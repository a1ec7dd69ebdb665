// The online server's API from the browser (docs/protocol.md "Online"). The player key is
// kept in this browser's local storage and sent to the server only in a POST body, which
// answers with an HttpOnly cookie; no credential ever goes into a URL.
import { errorText } from "../errors.js";
import { t } from "../i18n.js";

const KEY = "westeros.online.key";
const NAME = "westeros.online.name";

export function storedName() {
  return localStorage.getItem(NAME) || "";
}

export function storedKey() {
  return localStorage.getItem(KEY) || "";
}

/** POST `body` as JSON to `path`; resolves to the reply's JSON, throws its message. */
export async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body || {}),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(errorText(data));
  return data;
}

export async function get(path) {
  const response = await fetch(path, { credentials: "same-origin" });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(errorText(data));
  return data;
}

/** Register (or rename) this browser's player; creates the key on first use. */
export async function register(name, key) {
  const data = await post("/api/players", { name, key: key || storedKey() || undefined });
  localStorage.setItem(KEY, data.key);
  localStorage.setItem(NAME, data.name);
  return data;
}

/** Make sure the server knows this browser's player (after a cookie was lost). */
export async function ensurePlayer() {
  if (storedKey() && storedName()) return register(storedName(), storedKey());
  return null;
}

/** The WebSocket of a lobby (roster and chat); the cookie goes along. */
export function lobbySocket(lobbyId, onMessage) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  let socket;
  let retry = 500;
  const api = {
    send(message) {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    },
  };
  function connect() {
    socket = new WebSocket(`${scheme}//${location.host}/ws/lobbies/${encodeURIComponent(lobbyId)}`);
    socket.addEventListener("open", () => {
      retry = 500;
    });
    socket.addEventListener("message", (event) => {
      try {
        onMessage(JSON.parse(event.data));
      } catch {
        /* not JSON: ignore */
      }
    });
    socket.addEventListener("close", () => {
      setTimeout(connect, retry);
      retry = Math.min(8000, retry * 2);
    });
  }
  connect();
  return api;
}

/** Enable a form's fields, which its page serves disabled until a script listens to it. */
export function enableForm(form) {
  for (const field of form.elements) field.disabled = false;
}

/** Wire the identity form (name and, on another device, the key). */
export function identityForm(onChange) {
  const form = document.getElementById("identity");
  const status = document.getElementById("identity-status");
  if (!form) return;
  form.elements.name.value = storedName();
  enableForm(form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const key = form.elements.key.value.trim();
      const data = await register(form.elements.name.value, key || undefined);
      form.elements.key.value = "";
      status.textContent = t("You play as {name}.", { name: data.name });
      onChange?.(data);
    } catch (error) {
      status.textContent = error.message;
    }
  });
}

export function showError(id, error) {
  const node = document.getElementById(id);
  if (!node) return;
  node.hidden = !error;
  node.textContent = error ? error.message || String(error) : "";
}
