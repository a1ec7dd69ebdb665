"""Store fixtures: every store test runs against SQLite (a file in tmp_path) and PostgreSQL.

PostgreSQL runs when ``WESTEROS_TEST_POSTGRES_URL`` names a reachable server (CI:
``postgresql://postgres@127.0.0.1:5432/test``); otherwise those tests are skipped with the reason,
or fail when ``WESTEROS_TEST_POSTGRES_REQUIRED`` is set (so CI cannot skip them silently).
Each PostgreSQL test gets a fresh schema of its own, dropped afterwards."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from westeros.saves import ruleset_for
from westeros.store import GameStore, create_db_engine, migrate

from .helpers import ENV_TEST_POSTGRES_REQUIRED, ENV_TEST_POSTGRES_URL, postgres_unavailable


@pytest.fixture(autouse=True)
def _no_installed_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Store tests never see plugins installed on the machine, nor its database setting."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    """An empty database: (url, schema). PostgreSQL: a new schema, dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'westeros.db'}", None
        return
    reason = postgres_unavailable()
    if reason and os.environ.get(ENV_TEST_POSTGRES_REQUIRED, "") not in ("", "0"):
        pytest.fail(f"{reason} ({ENV_TEST_POSTGRES_REQUIRED} is set)")
    if reason:
        pytest.skip(reason)
    url = os.environ[ENV_TEST_POSTGRES_URL]
    schema = f"westeros_test_{uuid.uuid4().hex}"
    admin = create_db_engine(url)
    with admin.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield url, schema
    finally:
        with admin.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def engine(database: tuple[str, str | None]) -> Iterator[Engine]:
    """An engine on the empty database."""
    url, schema = database
    eng = create_db_engine(url, schema=schema)
    yield eng
    eng.dispose()


@pytest.fixture
def store(engine: Engine) -> GameStore:
    """A store on a database migrated to the latest revision."""
    migrate(engine)
    return GameStore(engine, rulesets=ruleset_for)
