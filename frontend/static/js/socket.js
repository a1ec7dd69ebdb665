// The seat's WebSocket to the local core (docs/protocol.md): views in, actions and hints out.
// Reconnects by itself; the server sends the current view again on every connect.

const HINT_TIMEOUT_MS = 3000;

export class Seat {
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.socket = null;
    this.stateId = null;
    this.nextId = 1;
    this.waiting = new Map();
    this.retry = 500;
    this.closed = false;
  }

  connect() {
    let opened = false;
    this.socket = new WebSocket(this.url);
    this.socket.addEventListener("open", () => {
      opened = true;
      this.retry = 500;
      this.handlers.status?.("open");
    });
    this.socket.addEventListener("message", (event) => this.received(event.data));
    this.socket.addEventListener("close", async (event) => {
      this.handlers.status?.("closed");
      for (const [, pending] of this.waiting) pending(null);
      this.waiting.clear();
      // 4403: a seat this client may not open; 4404: no such game or seat. Retrying won't help.
      if (event.code === 4403 || event.code === 4404) this.closed = true;
      // A handshake refused: is the page itself refused now (a new launch token after a
      // restart of the app)? Then no retry can help either.
      if (!opened && !this.closed && (await pageRefused())) {
        this.closed = true;
        this.handlers.status?.("refused");
      }
      if (this.closed) return;
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(8000, this.retry * 2);
    });
  }

  received(raw) {
    let message;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    if (message.type === "view") {
      this.stateId = message.state_id;
      this.handlers.view?.(message);
      return;
    }
    const reply = message.in_reply_to ?? message.id;
    if (message.type === "hint" && this.waiting.has(reply)) {
      this.waiting.get(reply)(message);
      this.waiting.delete(reply);
      return;
    }
    if (message.type === "error") {
      if (this.waiting.has(reply)) {
        // A draft the server gives no hint for: the board simply shows none.
        this.waiting.get(reply)(null);
        this.waiting.delete(reply);
        return;
      }
      this.handlers.error?.(message);
      return;
    }
    if (message.type === "accepted") {
      this.handlers.accepted?.(message);
      return;
    }
    if (message.type === "game_over") {
      this.handlers.gameOver?.(message);
      return;
    }
    this.handlers.other?.(message);
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Commit `action` (an engine Action as JSON) for this seat, or for `house`, a house
   * without a seat that this seat answers for (the view's `answering_for`); returns the
   * message id. */
  act(action, house = null) {
    const id = `a${this.nextId++}`;
    this.send({ type: "action", action, state_id: this.stateId, id, ...(house ? { house } : {}) });
    return id;
  }

  /** Ask for the combat-strength hint of a draft action (of `house`, as for `act`); resolves
   * to the reply or null. */
  hint(action, house = null) {
    const id = `h${this.nextId++}`;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      if (!this.send({ type: "hint", action, id, ...(house ? { house } : {}) })) {
        this.waiting.delete(id);
        resolve(null);
        return;
      }
      setTimeout(() => {
        if (this.waiting.has(id)) {
          this.waiting.delete(id);
          resolve(null);
        }
      }, HINT_TIMEOUT_MS);
    });
  }
}

/** Whether the server now refuses this page (HTTP 401/403: its launch token is not the
 * running app's); false when the server cannot be reached (it may be restarting). */
async function pageRefused() {
  try {
    const response = await fetch(location.pathname, {
      credentials: "same-origin",
      cache: "no-store",
    });
    return response.status === 401 || response.status === 403;
  } catch {
    return false;
  }
}

/** The WebSocket URL of a seat, on the page's own host (the token cookie goes along; the
 * token never stays in a page's address). */
export function seatUrl(gameId, house) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const path = `/ws/games/${encodeURIComponent(gameId)}/seats/${encodeURIComponent(house)}`;
  return `${scheme}//${location.host}${path}`;
}
