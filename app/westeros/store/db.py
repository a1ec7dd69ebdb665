"""Where the database is and how to open it (DESIGN §5).

By default a SQLite file ``westeros.db`` in the user data folder
(``platformdirs.user_data_dir("westeros")``), opened in WAL mode with foreign keys on. When
``WESTEROS_DATABASE_URL`` is set (e.g. ``postgresql://user@host/db``) that database is used
instead; plain ``postgresql://`` URLs use the psycopg (3) driver. The schema is created and
upgraded by the Alembic migrations in ``migrations/``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import platformdirs
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

from .errors import StoreError

ENV_DATABASE_URL = "WESTEROS_DATABASE_URL"
DB_FILE = "westeros.db"
MIGRATIONS = Path(__file__).parent / "migrations"
SQLITE_BUSY_TIMEOUT_S = 15


def data_dir() -> Path:
    """The user data folder of the app."""
    return Path(platformdirs.user_data_dir("westeros"))


def default_url() -> str:
    """The SQLite file in the user data folder."""
    return sa.URL.create("sqlite", database=str(data_dir() / DB_FILE)).render_as_string()


def database_url(url: str | None = None) -> str:
    """``url`` if given, else ``WESTEROS_DATABASE_URL`` if set, else the default SQLite file."""
    return url or os.environ.get(ENV_DATABASE_URL) or default_url()


def make_url(url: str | sa.URL) -> sa.URL:
    """Parse ``url``; PostgreSQL URLs without a driver get psycopg (3)."""
    parsed = sa.make_url(url)
    if parsed.drivername in ("postgres", "postgresql"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def _sqlite_memory(url: sa.URL) -> bool:
    return url.database in (None, "", ":memory:") or "mode=memory" in str(url.query)


def _sqlite_pragmas(wal: bool) -> Any:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        if wal:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()

    return on_connect


def create_db_engine(url: str | sa.URL | None = None, *, schema: str | None = None) -> Engine:
    """An engine for ``url`` (see ``database_url``).

    SQLite: the folder is created, every connection gets ``foreign_keys=ON`` and WAL mode.
    PostgreSQL: ``schema`` (which must exist) becomes the search path, so that the tables and
    the migrations' version table live there."""
    parsed = make_url(url if url is not None else database_url())
    if parsed.get_backend_name() == "sqlite":
        memory = _sqlite_memory(parsed)
        kwargs: dict[str, Any] = {"connect_args": {"timeout": SQLITE_BUSY_TIMEOUT_S}}
        if memory:
            kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
        else:
            Path(parsed.database or DB_FILE).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(parsed, **kwargs)
        sa.event.listen(engine, "connect", _sqlite_pragmas(wal=not memory))
        return engine
    kwargs = {"pool_pre_ping": True}
    if schema is not None and parsed.get_backend_name() == "postgresql":
        kwargs["connect_args"] = {"options": f"-csearch_path={schema}"}
    return sa.create_engine(parsed, **kwargs)


def alembic_config() -> Config:
    """An Alembic configuration pointing at the store's migrations."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    return config


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the database to ``revision`` (default: the latest) in one transaction."""
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def current_revision(engine: Engine) -> str | None:
    """The migration the database is at (None for an empty database)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str:
    """The latest migration."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise StoreError(f"no migrations found in {MIGRATIONS}")
    return head
