"""Alembic environment: the store's tables (``StoreModel.metadata``) on the connection the
caller passes in ``config.attributes["connection"]`` (see ``westeros.store.db.migrate``), or else
on the database ``westeros.store.db.database_url`` names (developers running ``alembic``)."""

from __future__ import annotations

from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlalchemy.engine import Connection

from westeros.store.db import create_db_engine, database_url
from westeros.store.models import JSONDocument, StoreModel

config = context.config
target_metadata = StoreModel.metadata


def render_item(kind: str, obj: Any, autogen_context: AutogenContext) -> str | Literal[False]:
    """Autogenerate writes JSON columns as plain SQLAlchemy types, so that a migration keeps
    working whatever becomes of ``models.JSONDocument``."""
    if kind == "type" and isinstance(obj, JSONDocument):
        autogen_context.imports.add("from sqlalchemy.dialects import postgresql")
        return 'sa.Text().with_variant(postgresql.JSON(), "postgresql")'
    return False


def run(connection: Connection) -> None:
    """Run the migrations on ``connection`` (batch mode on SQLite, which cannot alter tables)."""
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        render_item=render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    """Online migrations only: the store always migrates a live database."""
    connection = config.attributes.get("connection")
    if connection is not None:
        run(connection)
        return
    engine = create_db_engine(database_url(config.get_main_option("sqlalchemy.url") or None))
    try:
        with engine.begin() as connection:
            run(connection)
    finally:
        engine.dispose()


main()
