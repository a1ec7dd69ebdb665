"""Online test fixtures: the online server app on a fresh SQLite file (one process, the
embedded default), players as separate HTTP clients (each its own cookie jar = its own key).

PostgreSQL and Redis tests use ``WESTEROS_TEST_POSTGRES_URL`` (e.g.
``postgresql://postgres@127.0.0.1:5432/wt_online``) and ``WESTEROS_TEST_REDIS_URL`` (e.g.
``redis://127.0.0.1:6379/7``) and are skipped with the reason when those are not set or not
reachable."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .helpers import Player
from .live import fresh_schema
from .seat_helpers import LiveOnline, live_online, require_chromium


@pytest.fixture
def online_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The online server (SQLite, no Redis), its lifespan running."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    from westeros.online.app import create_online_app

    app = create_online_app(store_url=f"sqlite:///{tmp_path / 'online.db'}", ai_budget=0.05)
    with TestClient(app):
        yield app


@pytest.fixture
def limited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """``limited(forwarded_allow_ips=None, **limits)``: the online server (SQLite) with those
    ``Limits`` (and trusted proxies), its lifespan running."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    from westeros.online.app import create_online_app
    from westeros.online.limits import Limits

    with ExitStack() as running:

        def make(forwarded_allow_ips: str | None = None, **limits: Any) -> Any:
            app = create_online_app(
                store_url=f"sqlite:///{tmp_path / 'limited.db'}",
                ai_budget=0.05,
                limits=Limits(**limits),
                forwarded_allow_ips=forwarded_allow_ips,
            )
            running.enter_context(TestClient(app))
            return app

        yield make


@pytest.fixture
def player(online_app: Any) -> Callable[[str], Player]:
    """``player(name)``: a registered person with their own client (cookie jar, key)."""

    def make(name: str) -> Player:
        client = TestClient(online_app)
        reply = client.post("/api/players", json={"name": name})
        assert reply.status_code == 200, reply.text
        data = reply.json()
        return Player(name, data["key"], data["id"], client)

    return make


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveOnline]:
    """The online server under uvicorn on a fresh SQLite file, with the bundled plugins only (a
    socket's close runs to its end, as in production). Test files may define their own."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)
    with live_online(tmp_path) as live:
        yield live


@pytest.fixture
def chromium() -> None:
    """Skip the test with the reason when Chromium or Playwright is missing (browser tests:
    ``pytestmark = pytest.mark.usefixtures("chromium")``)."""
    require_chromium()


@pytest.fixture
def sockets() -> Iterator[ExitStack]:
    """Every socket a test opens, closed at its end."""
    with ExitStack() as stack:
        yield stack


ENV_PG = "WESTEROS_TEST_POSTGRES_URL"


def _postgres() -> str:
    url = os.environ.get(ENV_PG)
    if not url:
        pytest.skip(f"set {ENV_PG} (e.g. postgresql://postgres@127.0.0.1:5432/test)")
    import sqlalchemy as sa

    try:
        sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1)).connect().close()
    except Exception as exc:
        pytest.skip(f"PostgreSQL is not reachable ({exc})")
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> Iterator[str]:
    """'' (SQLite in the test's folder) or a fresh PostgreSQL schema's URL."""
    if request.param == "sqlite":
        yield ""
        return
    with fresh_schema(_postgres()) as url:
        yield url
