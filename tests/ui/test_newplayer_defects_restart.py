"""Issue 37 point 4: a board tab left open while the app restarts (a new launch token on the
same port), in Chromium against two real local cores started one after the other."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="the UI tests need playwright")

from playwright.sync_api import Page, expect

from .conftest import STARTUP_TIMEOUT_S, VIEWPORT
from .live import seeded_bots

FIRST_TOKEN = "first-launch-token-0123456789abcdef"
SECOND_TOKEN = "second-launch-token-0123456789abcdef"
EXPECTED = re.compile(
    r"Unexpected response code: 403|status of 403|ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET"
)
"""What Chromium logs while the core is down and then refuses the old token."""


def serve(tmp_path: Path, port: int, token: str) -> tuple[Any, Any, threading.Thread]:
    """The local core with ``token`` on ``port`` (its SQLite store in ``tmp_path``)."""
    uvicorn = pytest.importorskip("uvicorn", reason="the UI tests serve the app with uvicorn")
    from westeros.server import create_app

    app = create_app(
        token=token,
        store_url=f"sqlite:///{tmp_path / 'westeros.db'}",
        port=port,
        ai_delay=0.0,
        ai_factory=seeded_bots,
    )
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name="ui-test-core", daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the core did not start"
        time.sleep(0.05)
    return app, server, thread


def stop(server: Any, thread: threading.Thread) -> None:
    server.should_exit = True
    thread.join(timeout=10)


def test_issue37_tab_left_open_across_a_restart_says_to_reopen_the_game(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 37 point 4: after the app restarted, an old tab's socket was refused (HTTP 403,
    the new launch token) and the board said "reconnecting…" forever. Now it stops retrying
    and tells the person to reopen the game from the app. (Chromium logs the refused and
    failed requests on the console; any other console error fails the test.)"""
    from westeros.server import free_port

    context = browser.new_context(viewport=VIEWPORT)
    page: Page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def console(message: Any) -> None:
        if message.type == "error" and not EXPECTED.search(message.text):
            errors.append(message.text)

    page.on("console", console)
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    port = free_port()
    try:
        app, server, thread = serve(tmp_path, port, FIRST_TOKEN)
        try:
            session = app.state.games.create(players=3, human="stark", seed=1)
            url = f"http://127.0.0.1:{port}/games/{session.game_id}/play/stark"
            page.goto(f"{url}?token={FIRST_TOKEN}")
            status = page.locator("#connection")
            expect(status).to_have_attribute("data-status", "open")
        finally:
            stop(server, thread)
        expect(status).to_have_text("reconnecting…")
        _, server, thread = serve(tmp_path, port, SECOND_TOKEN)
        try:
            expect(status).to_have_attribute("data-status", "refused", timeout=20_000)
            expect(status).to_have_text(
                "This page belongs to an earlier start of the app: reopen the game from the app."
            )
            expect(status).to_have_attribute("role", "alert")
        finally:
            stop(server, thread)
    finally:
        context.close()
    assert not errors, f"script errors on the page: {errors}"
