"""Crash-test fixtures: a SQLite file (WAL) per test, and a fresh PostgreSQL schema when
``WESTEROS_TEST_POSTGRES_URL`` names a reachable server (skipped otherwise, or failed when
``WESTEROS_TEST_POSTGRES_REQUIRED`` is set)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.store.helpers import (
    ENV_TEST_POSTGRES_REQUIRED,
    ENV_TEST_POSTGRES_URL,
    postgres_unavailable,
)
from westeros.store import create_db_engine


@pytest.fixture(autouse=True)
def _no_installed_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Crash tests never see plugins installed on the machine, nor its database setting."""
    monkeypatch.setenv("WESTEROS_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.delenv("WESTEROS_DATABASE_URL", raising=False)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A SQLite database file (the store opens it in WAL mode)."""
    return f"sqlite:///{tmp_path / 'crash.db'}"


@pytest.fixture
def postgres() -> Iterator[tuple[str, str]]:
    """(url, schema): a new schema on the test server, dropped afterwards."""
    reason = postgres_unavailable()
    if reason and os.environ.get(ENV_TEST_POSTGRES_REQUIRED, "") not in ("", "0"):
        pytest.fail(f"{reason} ({ENV_TEST_POSTGRES_REQUIRED} is set)")
    if reason:
        pytest.skip(reason)
    url = os.environ[ENV_TEST_POSTGRES_URL]
    schema = f"westeros_crash_{uuid.uuid4().hex}"
    admin = create_db_engine(url)
    with admin.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield url, schema
    finally:
        with admin.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
