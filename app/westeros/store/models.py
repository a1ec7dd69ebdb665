"""The tables (DESIGN §5): a game is its setup, seed and append-only action log, plus snapshots
with a ``schema_version``; player profiles and app settings live beside them.

Every table derives from ``StoreModel``, whose metadata (with a naming convention, so that
constraint names are the same on SQLite and PostgreSQL) is what the Alembic migrations track.
Timestamps are stored in UTC."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import CheckConstraint, Column, DateTime, MetaData, Text, TypeDecorator
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.orm import registry
from sqlalchemy.types import TypeEngine
from sqlmodel import Field, SQLModel

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

HUMAN = "human"
AI = "ai"
SEAT_KINDS = (HUMAN, AI)

HASH_FORMAT = 2
"""The state hash new logs record (``State.hash``, from ``westeros.engine.encoding``)."""

ACTIVE = "active"
FINISHED = "finished"


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """``moment`` as timezone-aware UTC (SQLite gives back naive timestamps)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


class JSONDocument(TypeDecorator[Any]):
    """A JSON value: ``json`` on PostgreSQL, text elsewhere. (On SQLite a column declared JSON
    has numeric affinity, which silently turns a 64-bit seed like 2**64-1 into a float.)"""

    impl = Text
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(postgresql.JSON())
        return dialect.type_descriptor(Text())

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        return value if dialect.name == "postgresql" else json.dumps(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        if dialect.name == "postgresql" or value is None:
            return value
        return json.loads(value)


class NullableJSON(JSONDocument):
    """A JSON value that may be missing: Python None is SQL NULL (not JSON ``null``)."""

    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(postgresql.JSON(none_as_null=True))
        return dialect.type_descriptor(Text())

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        return None if value is None else super().process_bind_param(value, dialect)


def _json() -> Any:
    return Field(sa_column=Column(JSONDocument(), nullable=False))


def _time() -> Any:
    return Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


class StoreModel(SQLModel, registry=registry(metadata=MetaData(naming_convention=NAMING))):
    """Base of the store's tables; its ``metadata`` is the migrations' target."""


class Game(StoreModel, table=True):
    """One game: its setup and a summary kept up to date as actions are appended.

    ``seed`` is the seed as the player gave it (an integer or any text, JSON). ``round``,
    ``winner``, ``status`` and ``action_count`` summarise the latest state for the game list.
    ``hash_format`` names the state hash its log records (1: the format before the state
    encoding, rows stored before revision 0004; ``HASH_FORMAT``: ``State.hash``)."""

    __tablename__ = "games"
    __table_args__ = (CheckConstraint("status IN ('active', 'finished')", name="status"),)

    id: str = Field(primary_key=True, max_length=36)
    name: str = Field(default="", max_length=200)
    players: int
    seed: Any = _json()
    options: dict[str, Any] = _json()
    engine_version: str = Field(max_length=40)
    status: str = Field(default=ACTIVE, max_length=20, index=True)
    round: int = 1
    winner: str | None = Field(default=None, max_length=60)
    action_count: int = 0
    hash_format: int = Field(
        default=HASH_FORMAT, sa_column_kwargs={"server_default": "1"}, nullable=False
    )
    created_at: datetime = _time()
    updated_at: datetime = _time()


class GamePlugin(StoreModel, table=True):
    """A plugin (name and version) whose content the game was set up with, in load order."""

    __tablename__ = "game_plugins"

    game_id: str = Field(
        foreign_key="games.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    position: int = Field(primary_key=True)
    name: str = Field(max_length=200, index=True)
    version: str = Field(default="", max_length=60)


class Seat(StoreModel, table=True):
    """A seat: the house it plays, whether a human or an AI plays it and, for an AI seat, the
    personality it plays with (``personality``: a registered personality's id; empty: the
    balanced default)."""

    __tablename__ = "seats"
    __table_args__ = (CheckConstraint("kind IN ('human', 'ai')", name="kind"),)

    game_id: str = Field(
        foreign_key="games.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    position: int = Field(primary_key=True)
    house: str = Field(max_length=60)
    kind: str = Field(max_length=10)
    name: str = Field(default="", max_length=100)
    profile_id: int | None = Field(default=None, foreign_key="profiles.id", ondelete="SET NULL")
    personality: str = Field(default="", max_length=60, sa_column_kwargs={"server_default": ""})


class ActionRecord(StoreModel, table=True):
    """One accepted action of the append-only log: who sent it, the action as JSON and the
    hash of the state it led to. ``seq`` counts from 1 without gaps."""

    __tablename__ = "actions"

    game_id: str = Field(
        foreign_key="games.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    seq: int = Field(primary_key=True)
    house: str = Field(max_length=60)
    action: dict[str, Any] = _json()
    state_hash: str = Field(max_length=64)
    created_at: datetime = _time()


class Snapshot(StoreModel, table=True):
    """A replay point: the state hash after ``seq`` actions, the round, the public view
    (``player_view(state, None)``, which holds no secret) and the whole state to resume from
    (``westeros.engine.encoding.encode_state``; NULL in snapshots older than schema version 2,
    class paths in version 2: both are ignored).
    ``schema_version`` is the version of this record's layout (``SNAPSHOT_SCHEMA_VERSION``)."""

    __tablename__ = "snapshots"

    game_id: str = Field(
        foreign_key="games.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    seq: int = Field(primary_key=True)
    schema_version: int
    state_hash: str = Field(max_length=64)
    round: int
    view: dict[str, Any] = _json()
    state: dict[str, Any] | None = Field(
        default=None, sa_column=Column(NullableJSON(), nullable=True)
    )
    created_at: datetime = _time()


class Profile(StoreModel, table=True):
    """A player profile with its own settings (JSON)."""

    __tablename__ = "profiles"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=100, unique=True)
    settings: dict[str, Any] = _json()
    created_at: datetime = _time()
    updated_at: datetime = _time()


class Setting(StoreModel, table=True):
    """An application-wide setting (JSON value)."""

    __tablename__ = "settings"

    key: str = Field(primary_key=True, max_length=100)
    value: Any = _json()


class DealBookRecord(StoreModel, table=True):
    """The deal book of a local game (``westeros.deals``: proposals, replies, deals and the
    public record), saved whenever it changes so that a resumed game keeps its deals."""

    __tablename__ = "deal_books"

    game_id: str = Field(
        foreign_key="games.id", ondelete="CASCADE", primary_key=True, max_length=36
    )
    book: dict[str, Any] = _json()
    updated_at: datetime = _time()


from . import catchup as _catchup  # noqa: E402, F401  (how far each person has seen, issue 40)
from . import moderation as _moderation  # noqa: E402, F401  (moderation tables, issue 40)
from . import notices as _notices  # noqa: E402, F401  (turn notices outside the game, issue 40)
from . import online as _online  # noqa: E402, F401  (the online tables join this metadata)
from . import pace as _pace  # noqa: E402, F401  (the by-turns table, issue 40)
from . import ratings as _ratings  # noqa: E402, F401  (ratings and reliability, issue 40)
from . import votes as _votes  # noqa: E402, F401  (votes of online tables, issue 40)
