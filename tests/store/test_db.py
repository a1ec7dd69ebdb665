"""Where the database lives (DESIGN §5): SQLite in WAL mode with foreign keys in the user data
folder by default; the database named by ``WESTEROS_DATABASE_URL`` when it is set."""

from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest
import sqlalchemy as sa

from westeros.saves import open_store
from westeros.store import ENV_DATABASE_URL, create_db_engine, database_url
from westeros.store.db import current_revision, default_url, head_revision, make_url


def test_the_default_database_is_westeros_db_in_the_user_data_folder() -> None:
    url = make_url(default_url())
    assert url.get_backend_name() == "sqlite"
    assert url.database == str(Path(platformdirs.user_data_dir("westeros")) / "westeros.db")
    assert database_url() == default_url()


def test_the_environment_variable_selects_the_database(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "chosen" / "games.db"
    monkeypatch.setenv(ENV_DATABASE_URL, f"sqlite:///{path}")
    store = open_store()
    try:
        assert path.exists()
        assert current_revision(store.engine) == head_revision()
    finally:
        store.close()
    assert database_url("sqlite:///other.db") == "sqlite:///other.db"


@pytest.mark.parametrize(
    ("given", "driver"),
    [
        ("postgresql://postgres@127.0.0.1:5432/test", "postgresql+psycopg"),
        ("postgres://postgres@127.0.0.1/test", "postgresql+psycopg"),
        ("postgresql+psycopg://postgres@127.0.0.1/test", "postgresql+psycopg"),
        ("sqlite:///games.db", "sqlite"),
    ],
)
def test_postgresql_urls_use_the_psycopg_driver(given: str, driver: str) -> None:
    assert make_url(given).drivername == driver


def test_sqlite_connections_use_wal_and_foreign_keys(tmp_path: Path) -> None:
    engine = create_db_engine(f"sqlite:///{tmp_path / 'new' / 'folder' / 'westeros.db'}")
    try:
        with engine.connect() as connection:
            assert connection.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(sa.text("PRAGMA foreign_keys")).scalar() == 1
    finally:
        engine.dispose()


def test_an_in_memory_sqlite_store_works_for_tools_and_tests() -> None:
    store = open_store("sqlite://")
    try:
        store.set_setting("volume", 7)
        assert store.setting("volume") == 7
    finally:
        store.close()


def test_a_store_keeps_working_after_the_database_drops_an_idle_connection(
    database: tuple[str, str | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server whose pooled PostgreSQL connection was closed by the database (a restart, a
    dropped link) while idle still saves its next game: the dead connection is replaced."""
    url, schema = database
    if schema is None:
        pytest.skip("SQLite has no server to drop a connection")
    monkeypatch.setattr("westeros.store.db.PING_IDLE_S", 0.0)
    store = open_store(url, schema=schema)
    admin = create_db_engine(url)
    try:
        with store.engine.connect() as connection:
            backend = connection.execute(sa.text("SELECT pg_backend_pid()")).scalar_one()
        with admin.begin() as connection:
            connection.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": backend})
        store.create_profile("after the drop")
        assert [p.name for p in store.profiles()] == ["after the drop"]
    finally:
        admin.dispose()
        store.close()
