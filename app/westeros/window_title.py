"""The desktop window's title follows the page's (issue 13.7: "● Your move — Westeros" while a
decision waits). pywebview keeps the title the window was made with, whatever
``document.title`` says, and its page-side API is built with ``new Function``, which the pages'
CSP forbids; so a small thread reads the title with ``run_js`` (a call from outside the page,
no ``eval`` in it) and sets the window's whenever it changed."""

from __future__ import annotations

import logging
import threading
from typing import Any

log = logging.getLogger("westeros.desktop")

POLL_S = 0.5
TITLE_LIMIT = 200


def follow(window: Any, every: float = POLL_S) -> None:
    """Copy the page title of ``window`` (a ``webview.Window``) to the window until it closes."""
    shown = None
    while not window.events.closed.wait(every):
        try:
            title = window.run_js("document.title")
        except Exception:  # between two pages, or the window is going away
            log.debug("the page title could not be read", exc_info=True)
            continue
        if isinstance(title, str) and title and title != shown:
            shown = title[:TITLE_LIMIT]
            window.set_title(shown)


def follow_page_title(window: Any) -> None:
    """Once ``window`` is shown, let its title follow the page's."""

    def start() -> None:
        threading.Thread(target=follow, args=(window,), name="window-title", daemon=True).start()

    window.events.shown += start
