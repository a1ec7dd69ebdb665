"""The catch-up of online games (issue 40, docs/online-catchup.md): ``online_catchup_seen``,
one row per person and seat, how far they have seen the game (a log step and a chat line id).
Seats without a row (every seat before this revision) start from their house's last action.

Revision ID: 0012_catchup
Revises: 0011_moderation
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_catchup"
down_revision = "0011_moderation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "online_catchup_seen",
        sa.Column("lobby_id", sa.String(length=36), nullable=False),
        sa.Column("house", sa.String(length=60), nullable=False),
        sa.Column("player_id", sa.String(length=36), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("chat", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["lobby_id"],
            ["online_lobbies.id"],
            name=op.f("fk_online_catchup_seen_lobby_id_online_lobbies"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["online_players.id"],
            name=op.f("fk_online_catchup_seen_player_id_online_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "lobby_id", "house", "player_id", name=op.f("pk_online_catchup_seen")
        ),
    )


def downgrade() -> None:
    op.drop_table("online_catchup_seen")
