"""Games: setup, plugins, seats, the append-only action log and snapshots.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def json_column() -> sa.types.TypeEngine:
    """JSON: ``json`` on PostgreSQL, text elsewhere (models.JSONDocument)."""
    return sa.Text().with_variant(postgresql.JSON(), "postgresql")


def _game_id() -> sa.Column:
    return sa.Column("game_id", sa.String(length=36), nullable=False)


def _of_game(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["game_id"], ["games.id"], name=op.f(f"fk_{table}_game_id_games"), ondelete="CASCADE"
    )


def _time(name: str) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("seed", json_column(), nullable=False),
        sa.Column("options", json_column(), nullable=False),
        sa.Column("engine_version", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("winner", sa.String(length=60), nullable=True),
        sa.Column("action_count", sa.Integer(), nullable=False),
        _time("created_at"),
        _time("updated_at"),
        sa.CheckConstraint("status IN ('active', 'finished')", name=op.f("ck_games_status")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index(op.f("ix_games_status"), "games", ["status"])
    op.create_table(
        "game_plugins",
        _game_id(),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("version", sa.String(length=60), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "position", name=op.f("pk_game_plugins")),
        _of_game("game_plugins"),
    )
    op.create_index(op.f("ix_game_plugins_name"), "game_plugins", ["name"])
    op.create_table(
        "seats",
        _game_id(),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("house", sa.String(length=60), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.CheckConstraint("kind IN ('human', 'ai')", name=op.f("ck_seats_kind")),
        sa.PrimaryKeyConstraint("game_id", "position", name=op.f("pk_seats")),
        _of_game("seats"),
    )
    op.create_table(
        "actions",
        _game_id(),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("house", sa.String(length=60), nullable=False),
        sa.Column("action", json_column(), nullable=False),
        sa.Column("state_hash", sa.String(length=64), nullable=False),
        _time("created_at"),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_actions")),
        _of_game("actions"),
    )
    op.create_table(
        "snapshots",
        _game_id(),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("schema_version", sa.Integer(), nullable=False),
        sa.Column("state_hash", sa.String(length=64), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("view", json_column(), nullable=False),
        _time("created_at"),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_snapshots")),
        _of_game("snapshots"),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_index(op.f("ix_game_plugins_name"), table_name="game_plugins")
    op.drop_table("game_plugins")
    op.drop_index(op.f("ix_games_status"), table_name="games")
    op.drop_table("games")
