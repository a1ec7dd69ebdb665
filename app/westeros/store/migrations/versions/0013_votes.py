"""Votes of online tables (issue 40, docs/online-votes.md): ``online_votes`` (one row per
vote: kind, arguments, caller, electorate, majority, outcome; one open vote per lobby by the
unique ``open_lobby``) and ``online_ballots`` (one per voter and vote).

Revision ID: 0013_votes
Revises: 0012_catchup
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0013_votes"
down_revision = "0012_catchup"
branch_labels = None
depends_on = None


def _json() -> sa.types.TypeEngine:
    """JSON: ``json`` on PostgreSQL, text elsewhere (models.JSONDocument)."""
    return sa.Text().with_variant(postgresql.JSON(), "postgresql")


def _time(name: str, *, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "online_votes",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("lobby_id", sa.String(length=36), nullable=False),
        sa.Column("open_lobby", sa.String(length=36), nullable=True),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("house", sa.String(length=60), nullable=True),
        sa.Column("by", sa.String(length=20), nullable=True),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("caller_id", sa.String(length=36), nullable=False),
        sa.Column("caller_house", sa.String(length=60), nullable=False),
        sa.Column("voters", _json(), nullable=False),
        sa.Column("needed", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("result", _json(), nullable=False),
        _time("created_at"),
        _time("closes_at"),
        _time("closed_at", nullable=True),
        _time("lifted_at", nullable=True),
        sa.ForeignKeyConstraint(
            ["lobby_id"],
            ["online_lobbies.id"],
            name=op.f("fk_online_votes_lobby_id_online_lobbies"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["caller_id"],
            ["online_players.id"],
            name=op.f("fk_online_votes_caller_id_online_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_online_votes")),
        sa.UniqueConstraint("open_lobby", name=op.f("uq_online_votes_open_lobby")),
    )
    op.create_index(op.f("ix_online_votes_lobby_id"), "online_votes", ["lobby_id"])
    op.create_table(
        "online_ballots",
        sa.Column("vote_id", sa.String(length=36), nullable=False),
        sa.Column("player_id", sa.String(length=36), nullable=False),
        sa.Column("house", sa.String(length=60), nullable=False),
        sa.Column("yes", sa.Boolean(), nullable=False),
        _time("created_at"),
        sa.ForeignKeyConstraint(
            ["vote_id"],
            ["online_votes.id"],
            name=op.f("fk_online_ballots_vote_id_online_votes"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["online_players.id"],
            name=op.f("fk_online_ballots_player_id_online_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("vote_id", "player_id", name=op.f("pk_online_ballots")),
    )


def downgrade() -> None:
    op.drop_table("online_ballots")
    op.drop_index(op.f("ix_online_votes_lobby_id"), table_name="online_votes")
    op.drop_table("online_votes")
