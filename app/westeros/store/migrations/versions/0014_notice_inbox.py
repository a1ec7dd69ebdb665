"""The turn-notice inbox the desktop app reads (issue 40, ``store.notices.InboxItem``): one row
per decision announced to a player — game, lobby and its name, house, kind, round.

Revision ID: 0014_notice_inbox
Revises: 0013_votes
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_notice_inbox"
down_revision = "0013_votes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notice_inbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=36), nullable=False),
        sa.Column("game_id", sa.String(length=36), nullable=False),
        sa.Column("lobby_id", sa.String(length=36), nullable=False),
        sa.Column("lobby_name", sa.String(length=80), nullable=False),
        sa.Column("house", sa.String(length=60), nullable=False),
        sa.Column("kind", sa.String(length=60), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["online_players.id"],
            name=op.f("fk_notice_inbox_player_id_online_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_notice_inbox_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["lobby_id"],
            ["online_lobbies.id"],
            name=op.f("fk_notice_inbox_lobby_id_online_lobbies"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notice_inbox")),
    )
    op.create_index(op.f("ix_notice_inbox_player_id"), "notice_inbox", ["player_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_notice_inbox_player_id"), table_name="notice_inbox")
    op.drop_table("notice_inbox")
