"""Online play: players (name and key hash), lobbies, their seats and chat messages.

Revision ID: 0005_online
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0005_online"
down_revision = "0004_state_encoding"
branch_labels = None
depends_on = None


def json_column() -> sa.types.TypeEngine:
    """JSON: ``json`` on PostgreSQL, text elsewhere (models.JSONDocument)."""
    return sa.Text().with_variant(postgresql.JSON(), "postgresql")


def _time(name: str) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.create_table(
        "online_players",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        _time("created_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_online_players")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_online_players_key_hash")),
    )
    op.create_table(
        "online_lobbies",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("host_id", sa.String(length=36), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("settings", json_column(), nullable=False),
        sa.Column("clock_seconds", sa.Integer(), nullable=False),
        sa.Column("grace_seconds", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=36), nullable=True),
        _time("created_at"),
        sa.CheckConstraint(
            "status IN ('open', 'running', 'finished')", name=op.f("ck_online_lobbies_status")
        ),
        sa.ForeignKeyConstraint(
            ["host_id"],
            ["online_players.id"],
            name=op.f("fk_online_lobbies_host_id_online_players"),
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_online_lobbies_game_id_games"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_online_lobbies")),
    )
    op.create_index(op.f("ix_online_lobbies_status"), "online_lobbies", ["status"])
    op.create_table(
        "online_seats",
        sa.Column("lobby_id", sa.String(length=36), nullable=False),
        sa.Column("house", sa.String(length=60), nullable=False),
        sa.Column("player_id", sa.String(length=36), nullable=True),
        sa.Column("open", sa.Boolean(), nullable=False),
        sa.Column("ready", sa.Boolean(), nullable=False),
        sa.Column("connected", sa.Boolean(), nullable=False),
        sa.Column("invite_hash", sa.String(length=64), nullable=True),
        sa.Column("clock_left", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["lobby_id"],
            ["online_lobbies.id"],
            name=op.f("fk_online_seats_lobby_id_online_lobbies"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["online_players.id"],
            name=op.f("fk_online_seats_player_id_online_players"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("lobby_id", "house", name=op.f("pk_online_seats")),
    )
    op.create_index(op.f("ix_online_seats_invite_hash"), "online_seats", ["invite_hash"])
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("lobby_id", sa.String(length=36), nullable=False),
        sa.Column("player_name", sa.String(length=40), nullable=False),
        sa.Column("house", sa.String(length=60), nullable=True),
        sa.Column("to_house", sa.String(length=60), nullable=True),
        sa.Column("text", sa.String(length=500), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=40), nullable=False),
        _time("created_at"),
        sa.ForeignKeyConstraint(
            ["lobby_id"],
            ["online_lobbies.id"],
            name=op.f("fk_chat_messages_lobby_id_online_lobbies"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
    )
    op.create_index(op.f("ix_chat_messages_lobby_id"), "chat_messages", ["lobby_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_chat_messages_lobby_id"), table_name="chat_messages")
    op.drop_table("chat_messages")
    op.drop_index(op.f("ix_online_seats_invite_hash"), table_name="online_seats")
    op.drop_table("online_seats")
    op.drop_index(op.f("ix_online_lobbies_status"), table_name="online_lobbies")
    op.drop_table("online_lobbies")
    op.drop_table("online_players")
