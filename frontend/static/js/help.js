// The board's "How to play" (help_board.html): the top-bar button opens an overlay filled from
// /help/body (rendered by the server in the page's language, server/help_topics.py); each
// topic's "Show on board" closes it and highlights the board element it explains (its
// `data-show` selector), with a note that leads back to the topic.

const SPOT = "help-spot";

function parts() {
  return {
    open: document.getElementById("howto-open"),
    dialog: document.getElementById("howto"),
    body: document.getElementById("howto-body"),
    note: document.getElementById("howto-spot"),
  };
}

/** Put the button among the map tools, before the keyboard help. */
function placeButton(open) {
  const tools = document.querySelector(".topbar-tools");
  if (!tools || !open) return;
  tools.insertBefore(open, document.getElementById("help-open"));
}

async function load(body) {
  const game = document.body.dataset.game || "";
  const response = await fetch(`/help/body?game=${encodeURIComponent(game)}`, {
    credentials: "same-origin",
  });
  if (!response.ok) throw new Error(`the help could not be loaded (${response.status})`);
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const help = page.querySelector(".help");
  if (!help) throw new Error("the help page has no content");
  body.replaceChildren(document.importNode(help, true));
}

function clearSpot(note) {
  for (const el of document.querySelectorAll(`.${SPOT}`)) el.classList.remove(SPOT);
  note.hidden = true;
}

/** Highlight what `button` explains, or say there is none on the board now. */
function show(button, { dialog, note }) {
  clearSpot(note);
  const found = [...document.querySelectorAll(button.dataset.show)].filter(
    (el) => !dialog.contains(el) && el.checkVisibility(),
  );
  const topic = document.getElementById(button.dataset.topic);
  note.dataset.topic = button.dataset.topic;
  note.querySelector(".help-spot-title").textContent =
    topic?.querySelector(".help-topic-title")?.firstChild?.textContent?.trim() || "";
  const none = note.querySelector(".help-spot-none");
  none.textContent = found.length ? "" : dialog.querySelector(".help")?.dataset.none || "";
  none.hidden = found.length > 0;
  for (const el of found) el.classList.add(SPOT);
  dialog.close();
  note.hidden = false;
  found[0]?.scrollIntoView({ block: "center", inline: "center" });
}

function start() {
  const el = parts();
  if (!el.dialog || !el.open) return;
  placeButton(el.open);
  let loaded = null;
  const openAt = async (topicId) => {
    clearSpot(el.note);
    loaded = loaded || load(el.body);
    if (!el.dialog.open) el.dialog.showModal();
    try {
      await loaded;
    } catch (error) {
      loaded = null;
      el.body.textContent = String(error.message || error);
      return;
    }
    if (topicId) document.getElementById(topicId)?.scrollIntoView({ block: "start" });
  };
  el.open.addEventListener("click", (event) => {
    event.preventDefault();
    openAt(null);
  });
  el.dialog.querySelector("[data-close]")?.addEventListener("click", () => el.dialog.close());
  el.body.addEventListener("click", (event) => {
    const button = event.target.closest?.("[data-show]");
    if (button) show(button, el);
  });
  el.note.querySelector("[data-back]")?.addEventListener("click", () => {
    openAt(el.note.dataset.topic);
  });
  el.note.querySelector("[data-close]")?.addEventListener("click", () => clearSpot(el.note));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !el.note.hidden) clearSpot(el.note);
  });
}

start();
