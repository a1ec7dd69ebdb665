"""Persistence (DESIGN §5): games as setup + seed + append-only action log, snapshots with a
``schema_version``, player profiles and settings; SQLite (WAL) in the user data folder by
default, PostgreSQL when ``WESTEROS_DATABASE_URL`` is set; Alembic migrations in
``migrations/``; export and fully validated import of a game as one JSON file.

Typical use by the game session::

    store = open_store()  # westeros.saves: the store wired to the plugins
    game = store.create_game(GameSetup(players, seats, seed, rules.plugins, options))
    state, _ = apply(game.state, house, action)
    store.append_action(game.info.id, seq, house, action, state)   # committed before broadcast
"""

from .archive import FORMAT, FORMAT_VERSION
from .db import ENV_DATABASE_URL, create_db_engine, database_url, migrate
from .errors import (
    CorruptGame,
    DuplicateAction,
    GameNotFound,
    InvalidGameFile,
    InvalidSetup,
    NameTaken,
    NotFound,
    OutOfSequence,
    ProfileNotFound,
    StoreError,
)
from .models import AI, HUMAN
from .records import DamagedGame, GameInfo, GameSetup, LoadedGame, ProfileInfo, SeatSpec
from .replay import LogEntry, Timeline
from .repository import SNAPSHOT_SCHEMA_VERSION, GameStore

__all__ = [
    "AI",
    "ENV_DATABASE_URL",
    "FORMAT",
    "FORMAT_VERSION",
    "HUMAN",
    "SNAPSHOT_SCHEMA_VERSION",
    "CorruptGame",
    "DamagedGame",
    "DuplicateAction",
    "GameInfo",
    "GameNotFound",
    "GameSetup",
    "GameStore",
    "InvalidGameFile",
    "InvalidSetup",
    "LoadedGame",
    "LogEntry",
    "NameTaken",
    "NotFound",
    "OutOfSequence",
    "ProfileInfo",
    "ProfileNotFound",
    "SeatSpec",
    "StoreError",
    "Timeline",
    "create_db_engine",
    "database_url",
    "migrate",
]
