"""Alembic migrations (DESIGN §5): from an empty database to the latest revision, and from a
database created at the first revision, with a game in it, to the latest."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.engine import Engine

from westeros.engine import Ruleset
from westeros.saves import open_store, ruleset_for
from westeros.store import GameStore, migrate
from westeros.store.db import (
    HEAD_REVISION,
    alembic_config,
    current_revision,
    head_revision,
    stored_revision,
)
from westeros.store.models import ActionRecord, Game, GamePlugin, Seat, Snapshot, StoreModel

from .helpers import play, record, three_player_setup

FIRST = "0001"
FIRST_TABLES = (Game, GamePlugin, Seat, ActionRecord, Snapshot)


def _tables(engine: Engine) -> set[str]:
    return set(sa.inspect(engine).get_table_names())


def _differences(engine: Engine) -> list[object]:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, StoreModel.metadata))


def test_migrations_run_from_an_empty_database_to_head(engine: Engine) -> None:
    assert current_revision(engine) is None
    assert _tables(engine) == set()
    migrate(engine)
    assert current_revision(engine) == head_revision()
    assert _tables(engine) == {t.name for t in StoreModel.metadata.sorted_tables} | {
        "alembic_version"
    }
    assert _differences(engine) == []


def test_migrating_a_database_at_head_again_changes_nothing(engine: Engine) -> None:
    migrate(engine)
    migrate(engine)
    assert current_revision(engine) == head_revision()


def test_the_first_revision_creates_the_game_tables(engine: Engine) -> None:
    migrate(engine, FIRST)
    assert current_revision(engine) == FIRST
    assert _tables(engine) == {m.__tablename__ for m in FIRST_TABLES} | {"alembic_version"}


def test_a_database_created_at_the_first_revision_upgrades_cleanly_with_its_games(
    engine: Engine, rules: Ruleset, tmp_path: Path
) -> None:
    migrate(engine, FIRST)
    source = open_store(f"sqlite:///{tmp_path / 'source.db'}")
    game = source.create_game(three_player_setup(rules))
    moves = play(game.state, 4)
    record(source, game.info.id, moves)
    later_columns = {"profile_id", "state", "hash_format", "personality"}  # revisions 0002-0006
    with source.engine.connect() as read, engine.begin() as write:
        for model in FIRST_TABLES:
            table = model.__table__  # type: ignore[attr-defined]
            rows = [
                {k: v for k, v in row._mapping.items() if k not in later_columns}
                for row in read.execute(sa.select(table))
            ]
            if model is Snapshot:
                rows = [{**row, "schema_version": 1} for row in rows]
            # typed columns of revision 1 only (the model would add later columns' defaults)
            plain = sa.table(table.name, *(sa.column(k, table.c[k].type) for k in rows[0]))
            write.execute(plain.insert(), rows)
    source.close()

    migrate(engine)

    assert current_revision(engine) == head_revision()
    assert _differences(engine) == []
    with engine.begin() as connection:  # these rows were made today, with today's hashes
        connection.execute(sa.text("UPDATE games SET hash_format = 2"))
    store = GameStore(engine, rulesets=ruleset_for)
    loaded = store.load_game(game.info.id)
    assert loaded.state.hash() == moves[-1][2].hash()
    assert loaded.resumed_from == 0  # first-revision snapshots hold no state: full replay
    profile = store.create_profile("Eddard")
    assert [s.profile_id for s in store.game(game.info.id).setup.seats] == [None, None, None]
    store.append_action(game.info.id, 5, *play(moves[-1][2], 1)[0])
    assert store.game(game.info.id).action_count == 5
    assert store.profile(profile.id).name == "Eddard"


def test_every_migration_can_be_undone(engine: Engine) -> None:
    migrate(engine)
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
    assert current_revision(engine) is None
    assert _tables(engine) == {"alembic_version"}


def test_the_written_out_head_is_alembic_s_head() -> None:
    """A new migration must move ``HEAD_REVISION`` too, or opening a database at the old head
    would skip it."""
    assert head_revision() == HEAD_REVISION


def test_a_database_one_revision_behind_is_upgraded_when_opened(engine: Engine) -> None:
    migrate(engine, f"{HEAD_REVISION}-1")
    assert stored_revision(engine) != HEAD_REVISION
    migrate(engine)
    assert stored_revision(engine) == HEAD_REVISION
    assert _differences(engine) == []


def test_opening_a_database_at_head_does_not_start_alembic(tmp_path: Path) -> None:
    """The desktop app opens its database on every start: Alembic is not needed then (issue 37
    point 5, start-up time)."""
    url = f"sqlite:///{tmp_path / 'w.db'}"
    code = (
        "import sys; from westeros.store import db; "
        f"db.migrate(db.create_db_engine({url!r})); "
        "print('alembic' in sys.modules)"
    )
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert (first.stdout.strip(), again.stdout.strip()) == ("True", "False")
