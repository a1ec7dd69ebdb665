"""Moderation of online play (issue 40): who wrote each chat line, players' blocks, reports
of chat lines, and operators' mutes and bans (``westeros.store.moderation``).

Revision ID: 0011_moderation
Revises: 0010_pace
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.schema import SchemaItem

revision = "0011_moderation"
down_revision = "0010_pace"
branch_labels = None
depends_on = None


def _time(name: str) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False)


def _player(column: str, table: str, *, nullable: bool = False) -> list[SchemaItem]:
    return [
        sa.Column(column, sa.String(length=36), nullable=nullable),
        sa.ForeignKeyConstraint(
            [column],
            ["online_players.id"],
            name=op.f(f"fk_{table}_{column}_online_players"),
            ondelete="CASCADE",
        ),
    ]


def _message(table: str) -> list[SchemaItem]:
    return [
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["message_id"],
            ["chat_messages.id"],
            name=op.f(f"fk_{table}_message_id_chat_messages"),
            ondelete="CASCADE",
        ),
    ]


def upgrade() -> None:
    op.create_table(
        "chat_senders",
        *_message("chat_senders"),
        *_player("player_id", "chat_senders"),
        sa.PrimaryKeyConstraint("message_id", name=op.f("pk_chat_senders")),
    )
    op.create_index(op.f("ix_chat_senders_player_id"), "chat_senders", ["player_id"])
    op.create_table(
        "chat_blocks",
        sa.Column("id", sa.String(length=36), nullable=False),
        *_player("blocker_id", "chat_blocks"),
        *_player("blocked_id", "chat_blocks"),
        sa.Column("label", sa.String(length=80), nullable=False),
        _time("created_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_blocks")),
        sa.UniqueConstraint("blocker_id", "blocked_id", name=op.f("uq_chat_blocks_blocker_id")),
    )
    op.create_index(op.f("ix_chat_blocks_blocker_id"), "chat_blocks", ["blocker_id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), nullable=False),
        *_message("chat_reports"),
        *_player("reporter_id", "chat_reports"),
        sa.Column("reason", sa.String(length=500), nullable=False),
        _time("created_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_reports")),
        sa.UniqueConstraint("message_id", "reporter_id", name=op.f("uq_chat_reports_message_id")),
    )
    op.create_index(op.f("ix_chat_reports_message_id"), "chat_reports", ["message_id"])
    op.create_table(
        "player_sanctions",
        *_player("player_id", "player_sanctions"),
        sa.Column("muted", sa.Boolean(), nullable=False),
        sa.Column("banned", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        _time("updated_at"),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_player_sanctions")),
    )


def downgrade() -> None:
    op.drop_table("player_sanctions")
    op.drop_index(op.f("ix_chat_reports_message_id"), table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_index(op.f("ix_chat_blocks_blocker_id"), table_name="chat_blocks")
    op.drop_table("chat_blocks")
    op.drop_index(op.f("ix_chat_senders_player_id"), table_name="chat_senders")
    op.drop_table("chat_senders")
