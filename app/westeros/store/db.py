"""Where the database is and how to open it (DESIGN §5).

By default a SQLite file ``westeros.db`` in the user data folder
(``platformdirs.user_data_dir("westeros")``), opened in WAL mode with foreign keys on. When
``WESTEROS_DATABASE_URL`` is set (e.g. ``postgresql://user@host/db``) that database is used
instead; plain ``postgresql://`` URLs use the psycopg (3) driver. The schema is created and
upgraded by the Alembic migrations in ``migrations/``. A SQLite file that cannot be read is
set aside (renamed, kept) by ``set_aside_unreadable`` so that the app can start afresh."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

from .errors import StoreError

if TYPE_CHECKING:
    from alembic.config import Config

ENV_DATABASE_URL = "WESTEROS_DATABASE_URL"
DB_FILE = "westeros.db"
MIGRATIONS = Path(__file__).parent / "migrations"
SQLITE_BUSY_TIMEOUT_S = 15
PING_IDLE_S = 1.0  # a pooled connection idle longer than this is checked before use
SQLITE_DAMAGED = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
HEAD_REVISION = "0014_notice_inbox"
"""The latest migration, written out so that opening a database already there needs no
Alembic (importing it and reading every migration is a good part of the desktop's start-up,
issue 37 point 5); tests/store/test_migrations.py checks it against Alembic's own head."""
VERSION_TABLE = "alembic_version"


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
    the migrations' version table live there; a pooled connection idle longer than
    PING_IDLE_S is checked before it is handed out (a dead one is replaced)."""
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
    kwargs = {}
    if schema is not None and parsed.get_backend_name() == "postgresql":
        kwargs["connect_args"] = {"options": f"-csearch_path={schema}"}
    engine = sa.create_engine(parsed, **kwargs)
    sa.event.listen(engine.pool, "checkin", _note_checkin)
    sa.event.listen(engine.pool, "checkout", _ping_if_idle(engine.dialect))
    return engine


def _note_checkin(_dbapi_connection: Any, record: Any) -> None:
    record.info["checked_in"] = time.monotonic()


def _ping_if_idle(dialect: sa.Dialect) -> Any:
    """Check a pooled connection that sat idle longer than PING_IDLE_S before handing it out
    (a restarted server, a dropped link): the pool replaces a dead one. A connection in
    steady use is handed out as it is: a ping before every transaction would add a round
    trip to each, as long as a whole one-statement transaction."""

    def on_checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        if time.monotonic() - record.info.get("checked_in", 0.0) <= PING_IDLE_S:
            return
        try:
            alive = dialect.do_ping(dbapi_connection)
        except Exception as exc:
            raise sa.exc.DisconnectionError(f"a pooled connection is dead: {exc}") from exc
        if not alive:
            raise sa.exc.DisconnectionError("a pooled connection is dead")

    return on_checkout


def alembic_config() -> Config:
    """An Alembic configuration pointing at the store's migrations."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    return config


def stored_revision(engine: Engine) -> str | None:
    """The migration the database is at, read without Alembic (None for an empty database)."""
    with engine.connect() as connection:
        if not sa.inspect(connection).has_table(VERSION_TABLE):
            return None
        rows = connection.execute(sa.text(f"SELECT version_num FROM {VERSION_TABLE}")).all()
    return rows[0][0] if len(rows) == 1 else None


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the database to ``revision`` (default: the latest) in one transaction; a
    database already at the latest is left as it is without starting Alembic."""
    if revision == "head" and stored_revision(engine) == HEAD_REVISION:
        return
    from alembic import command

    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def current_revision(engine: Engine) -> str | None:
    """The migration the database is at (None for an empty database)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str:
    """The latest migration, as Alembic reads it from the migration files."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise StoreError(f"no migrations found in {MIGRATIONS}")
    return head


@dataclass(frozen=True)
class SetAside:
    """A SQLite database file that could not be read, renamed so that a fresh one can start."""

    original: Path
    kept: Path
    reason: str


def sqlite_file(url: str | None = None) -> Path | None:
    """The file of a SQLite database ``url`` (see ``database_url``); None for other databases
    and in-memory ones."""
    parsed = make_url(database_url(url))
    if parsed.get_backend_name() != "sqlite" or _sqlite_memory(parsed):
        return None
    return Path(parsed.database or DB_FILE).expanduser()


def unreadable_reason(path: Path) -> str | None:
    """Why the SQLite file ``path`` cannot be used (not a database, or damaged), or None if it
    can be, is empty or does not exist. Other failures (locked, no permission) are not damage
    and are left to the normal opening, which reports them."""
    if not path.is_file() or path.stat().st_size == 0:
        return None
    try:
        # Read-only: a read-write connection to a damaged file deletes its -wal file on close.
        uri = f"{path.resolve().as_uri()}?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=2)) as c:
            problems = [row[0] for row in c.execute("PRAGMA quick_check").fetchall()]
    except sqlite3.DatabaseError as error:
        if error.sqlite_errorcode & 0xFF in SQLITE_DAMAGED:
            return str(error)
        return None
    return None if problems == ["ok"] else "; ".join(problems[:3])


def set_aside_unreadable(url: str | None = None) -> SetAside | None:
    """If ``url`` names a SQLite file that cannot be read, rename it (with its ``-wal`` and
    ``-shm`` files) to ``<name>.unreadable-<UTC time>`` beside it, bytes unchanged, so that the
    app starts with a fresh database; returns what was done, or None if nothing was needed."""
    path = sqlite_file(url)
    reason = unreadable_reason(path) if path is not None else None
    if path is None or reason is None:
        return None
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    kept = path.with_name(f"{path.name}.unreadable-{stamp}")
    n = 1
    while kept.exists():
        n += 1
        kept = path.with_name(f"{path.name}.unreadable-{stamp}-{n}")
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            companion.rename(kept.with_name(kept.name + suffix))
    path.rename(kept)
    return SetAside(original=path, kept=kept, reason=reason)
