"""Helpers of the online tests (issue 35 findings 4, 5, 10, 11, 13, 15): the online server of
one worker served by uvicorn in this process on a SQLite file; people talking to it over real
HTTP and WebSockets (their key in the ``X-Westeros-Key`` header), whose sockets can be read
with a timeout, or through a Chromium page; and two hubs sharing one store and one Redis
database, as two ``westeros server`` workers would."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from tests.store.helpers import postgres_unavailable
from westeros.online.bus import RedisBus
from westeros.online.errors import OnlineError
from westeros.online.hub import OnlineHub
from westeros.online.store import OnlineStore
from westeros.saves import open_store
from westeros.store import GameStore

from ..ui.conftest import CHROMIUM, CHROMIUM_ARGS, VIEWPORT
from .live import ENV_REDIS, fresh_schema, post_json

WAIT_S = 10.0


@dataclasses.dataclass
class LiveOnline:
    """An online server running in this process: its address and its app (hub, store)."""

    url: str
    app: Any

    @property
    def ws(self) -> str:
        return "ws" + self.url.removeprefix("http")

    @property
    def hub(self) -> Any:
        return self.app.state.online.hub


@contextlib.contextmanager
def live_online(tmp_path: Path, **options: Any) -> Iterator[LiveOnline]:
    """``create_online_app`` on a fresh SQLite file under uvicorn, until the block ends."""
    import uvicorn

    from westeros.online.app import create_online_app

    from .live import free_port

    app = create_online_app(
        store_url=f"sqlite:///{tmp_path / 'seats.db'}", ai_budget=0.05, **options
    )
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield LiveOnline(f"http://127.0.0.1:{port}", app)
    finally:
        server.should_exit = True
        thread.join(15)


@dataclasses.dataclass
class Person:
    """A registered player of ``server``: name, key and id."""

    name: str
    key: str
    id: str
    server: LiveOnline

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """POST JSON as this person; the reply's JSON (asserting 200)."""
        status, data = self.try_post(path, body)
        assert status == 200, (path, status, data)
        return dict(data)

    def try_post(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        """POST JSON as this person; (status, reply JSON)."""
        return post_json(f"{self.server.url}{path}", body or {}, self.key)

    def socket(self, path: str) -> Any:
        """A WebSocket to ``path`` carrying this person's key."""
        from websockets.sync.client import connect

        return connect(f"{self.server.ws}{path}", additional_headers={"x-westeros-key": self.key})


def register(server: LiveOnline, name: str) -> Person:
    """A new player called ``name`` on ``server``."""
    status, data = post_json(f"{server.url}/api/players", {"name": name})
    assert status == 200, data
    return Person(name, data["key"], data["id"], server)


def anonymous_socket(server: LiveOnline, path: str) -> Any:
    """A WebSocket to ``path`` without a key (a spectator)."""
    from websockets.sync.client import connect

    return connect(f"{server.ws}{path}")


def receive(ws: Any, timeout: float = WAIT_S) -> dict[str, Any]:
    """The next message of ``ws`` as JSON (TimeoutError after ``timeout``)."""
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message


def receive_until(
    ws: Any, wanted: Callable[[dict[str, Any]], bool], timeout: float = WAIT_S
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The first message of ``ws`` for which ``wanted`` holds, and every message before it."""
    deadline = time.monotonic() + timeout
    before: list[dict[str, Any]] = []
    while True:
        message = receive(ws, max(0.01, deadline - time.monotonic()))
        if wanted(message):
            return message, before
        before.append(message)


def until_closed(ws: Any, timeout: float = WAIT_S) -> tuple[list[dict[str, Any]], int | None]:
    """Every message ``ws`` receives until the server closes it, and the close code (None:
    still open after ``timeout``)."""
    from websockets.exceptions import ConnectionClosed

    deadline = time.monotonic() + timeout
    got: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        try:
            got.append(receive(ws, max(0.01, deadline - time.monotonic())))
        except TimeoutError:
            break
        except ConnectionClosed as closed:
            return got, closed.rcvd.code if closed.rcvd is not None else None
    return got, None


def chat(ws: Any, text: str, to: str | None = None) -> None:
    """Send a chat line (a raven when ``to`` names a house)."""
    ws.send(json.dumps({"type": "chat", "text": text, "to": to}))


def chat_texts(messages: list[dict[str, Any]]) -> list[str]:
    """The texts of the chat lines among ``messages``."""
    return [m["text"] for m in messages if m.get("type") == "chat"]


class SlowReads:
    """Pause after every read of the seats or lobbies made by a racing thread."""

    def __init__(self, engine: sa.Engine, pause: float = 0.05) -> None:
        self.engine = engine
        self.pause = pause
        self.paused = 0
        self._lock = threading.Lock()

    def __enter__(self) -> SlowReads:
        sa.event.listen(self.engine, "after_cursor_execute", self._after)
        return self

    def __exit__(self, *_: object) -> None:
        sa.event.remove(self.engine, "after_cursor_execute", self._after)

    def _after(self, _conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        racing = threading.current_thread().name.startswith("racer")
        read = statement.lstrip().upper().startswith("SELECT")
        if racing and read and ("online_seats" in statement or "online_lobbies" in statement):
            with self._lock:
                self.paused += 1
            time.sleep(self.pause)


def race(calls: list[Callable[[], Any]]) -> tuple[list[Any], list[OnlineError]]:
    """Run ``calls`` at once (each in its own thread, released together): what they
    returned and what they raised."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls), thread_name_prefix="racer") as pool:
        futures = [pool.submit(run, call) for call in calls]
    won: list[Any] = []
    lost: list[OnlineError] = []
    for future in futures:
        error = future.exception()
        if error is None:
            won.append(future.result())
        else:
            assert isinstance(error, OnlineError), error  # a clear refusal, never a crash
            lost.append(error)
    return won, lost


@contextlib.contextmanager
def race_store(kind: str, tmp_path: Path) -> Iterator[GameStore]:
    """A game store on a SQLite file (``kind`` "sqlite", WAL as the app opens it) or on a
    fresh PostgreSQL schema (skipped with the reason when PostgreSQL is absent)."""
    with contextlib.ExitStack() as stack:
        if kind == "sqlite":
            url = f"sqlite:///{tmp_path / 'races.db'}"
        else:
            reason = postgres_unavailable()
            if reason:
                pytest.skip(reason)
            url = stack.enter_context(fresh_schema(os.environ["WESTEROS_TEST_POSTGRES_URL"]))
        opened = open_store(url)
        stack.callback(opened.close)
        yield opened


def redis_or_skip() -> str:
    """The test Redis database's URL; the test is skipped with the reason when it is unset or
    does not answer."""
    import redis

    url = os.environ.get(ENV_REDIS)
    if not url:
        pytest.skip(f"two workers need Redis: set {ENV_REDIS} (e.g. redis://127.0.0.1:6379/7)")
    try:
        redis.Redis.from_url(url).ping()
    except redis.RedisError as exc:
        pytest.skip(f"Redis is not reachable ({exc})")
    return url


@contextlib.contextmanager
def two_hubs(
    store: GameStore,
    url: str,
    name: str,
    second_bus: Callable[[str, str], RedisBus] = RedisBus,
    **options: Any,
) -> Iterator[tuple[OnlineHub, OnlineHub]]:
    """Workers A and B: two hubs on ``store`` and one AI pool, each with its own bus on the
    Redis database ``url`` under a fresh prefix starting with ``name`` (B's bus made by
    ``second_bus``); ``options`` go to both hubs. Closed when the block ends."""
    prefix = f"{name}-{uuid.uuid4().hex[:8]}"
    pool = ThreadPoolExecutor(1)
    a = OnlineHub(store, OnlineStore(store.engine), RedisBus(url, prefix), pool, **options)
    b = OnlineHub(store, OnlineStore(store.engine), second_bus(url, prefix), pool, **options)
    try:
        yield a, b
    finally:
        for hub in (a, b):
            hub.close()
            hub.bus.close()
        pool.shutdown()


def require_chromium() -> None:
    """Skip the test with the reason when Chromium or Playwright is missing."""
    if not CHROMIUM.exists():
        pytest.skip(f"the browser tests need Chromium at {CHROMIUM}")
    pytest.importorskip("playwright", reason="the browser tests drive Chromium with Playwright")


def browser_context(browser: Any) -> Any:
    """A new context (one person's cookies and storage) of ``browser``, at the UI tests'
    viewport."""
    return browser.new_context(viewport={"width": VIEWPORT["width"], "height": VIEWPORT["height"]})


def launch_context(launch_chromium: Callable[..., Any]) -> Any:
    """Chromium launched through the ``launch_chromium`` fixture, and a context of it."""
    return browser_context(launch_chromium(CHROMIUM, CHROMIUM_ARGS))


def page_post(context: Any, base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON to ``base + path`` from the browser ``context`` (its cookie, the page's
    origin); the reply's JSON (asserting success)."""
    reply = context.request.post(
        base + path,
        data=json.dumps(body),
        headers={"content-type": "application/json", "origin": base},
    )
    assert reply.ok, reply.text()
    data: dict[str, Any] = reply.json()
    return data


def register_in_page(page: Any, base: str, name: str) -> None:
    """Register ``name`` on the server's front page in ``page``, as a person does: the form
    filled and sent, until the page has stored the new key."""
    page.goto(base + "/")
    page.locator("#identity input[name=name]").fill(name)
    page.locator("#identity button[type=submit]").click()
    page.wait_for_function("() => localStorage.getItem('westeros.online.key')")


def register_in_context(context: Any, base: str, name: str) -> None:
    """Register ``name`` in a page of the browser ``context`` (``register_in_page``), closed
    afterwards: the context holds the new person's key."""
    page = context.new_page()
    register_in_page(page, base, name)
    page.close()
