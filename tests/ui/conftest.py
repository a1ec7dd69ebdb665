"""UI test fixtures: the real local core (engine, SQLite store, seeded AI seats) served by
uvicorn on a free 127.0.0.1 port, and Debian's Chromium driven by Playwright.

Playwright's own browser download does not work here: the tests launch /usr/bin/chromium
(``apt-get install chromium``) and are skipped with a clear reason when it is missing."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .live import LiveCore, seeded_bots

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TOKEN = "ui-test-launch-token-0123456789"
VIEWPORT = {"width": 1600, "height": 1000}
STARTUP_TIMEOUT_S = 20.0
REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"


@pytest.fixture
def core_factory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """``core_factory(**create_app_kwargs)``: the real app on uvicorn in a thread (AI delay 0,
    seeded AI seats, a fresh SQLite store); every core started is stopped afterwards."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    uvicorn = pytest.importorskip("uvicorn", reason="the UI tests serve the app with uvicorn")
    from westeros.server import create_app, free_port

    running: list[tuple[Any, threading.Thread]] = []

    def start(**kwargs: Any) -> LiveCore:
        port = free_port()
        kwargs.setdefault("ai_factory", seeded_bots)
        app = create_app(
            token=TOKEN,
            store_url=f"sqlite:///{tmp_path / f'westeros-{len(running)}.db'}",
            port=port,
            ai_delay=0.0,
            **kwargs,
        )
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, name="ui-test-core", daemon=True)
        thread.start()
        running.append((server, thread))
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                pytest.fail("the local core did not start")
            time.sleep(0.05)
        return LiveCore(f"http://127.0.0.1:{port}", TOKEN, app)

    yield start
    for server, thread in running:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def live_core(core_factory: Any) -> LiveCore:
    """The local core with the game's own AI on every other seat."""
    return core_factory()


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    """Debian's Chromium, headless."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium); UI tests need it")
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


BODY_DONE = pytest.StashKey[bool]()
SERVER_GONE = ("net::ERR_CONNECTION_REFUSED", "net::ERR_CONNECTION_RESET")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Mark the end of the test body, for the page's error check (``page``)."""
    try:
        return (yield)
    finally:
        item.stash[BODY_DONE] = True


def script_errors(page: Any, request: pytest.FixtureRequest) -> list[str]:
    """The script errors of ``page``, collected from now on. A request the page sends after the
    test body, once the core it talks to has stopped (its fixture is torn down first), is not
    an error of the page: refused, or reset when the core stopped while it was on its way."""
    errors: list[str] = []

    def console(message: Any) -> None:
        after = request.node.stash.get(BODY_DONE, False)
        if message.type == "error" and not (after and any(g in message.text for g in SERVER_GONE)):
            errors.append(message.text)

    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", console)
    return errors


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh page; any script error on it fails the test (``script_errors``)."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    errors = script_errors(page, request)
    yield page
    context.close()
    assert not errors, f"script errors on the page: {errors}"


@pytest.fixture
def artifacts() -> Path:
    """artifacts/ under the repository root (git-ignored), for screenshots."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
