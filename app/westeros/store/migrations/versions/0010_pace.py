"""Games played by turns (issue 40, docs/online-pace.md): ``online_seat_paces``, one row per
person's seat of a game whose pace is ``by_turns`` (its decision's deadline, missed deadlines
in a row, the AI keeping it, an offered seat's invite, the vacation). Lobbies stored before
this revision are live games and have no rows.

Revision ID: 0010_pace
Revises: 0009_notices
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_pace"
down_revision = "0009_notices"
branch_labels = None
depends_on = None


def _moment(name: str) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=True)


def upgrade() -> None:
    op.create_table(
        "online_seat_paces",
        sa.Column("lobby_id", sa.String(length=36), nullable=False),
        sa.Column("house", sa.String(length=60), nullable=False),
        sa.Column("player_id", sa.String(length=36), nullable=True),
        sa.Column("asked_serial", sa.Integer(), nullable=True),
        _moment("deadline_at"),
        sa.Column("lapsed", sa.Boolean(), nullable=False),
        sa.Column("missed", sa.Integer(), nullable=False),
        sa.Column("away", sa.Boolean(), nullable=False),
        sa.Column("offer_token", sa.String(length=64), nullable=True),
        sa.Column("vacation_left", sa.Float(), nullable=False),
        _moment("vacation_since"),
        sa.Column("paused_left", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["lobby_id"],
            ["online_lobbies.id"],
            name=op.f("fk_online_seat_paces_lobby_id_online_lobbies"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["online_players.id"],
            name=op.f("fk_online_seat_paces_player_id_online_players"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("lobby_id", "house", name=op.f("pk_online_seat_paces")),
    )


def downgrade() -> None:
    op.drop_table("online_seat_paces")
