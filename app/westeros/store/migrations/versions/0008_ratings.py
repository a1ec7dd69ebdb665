"""Ratings and reliability of online players (issue 40): finished online games as recorded
(``rated_games``, one row per game) with each person's place and rating change
(``rated_places``), current ratings (``player_ratings``), running games a person lost their
seat in (``games_left``) and deadlines missed (``missed_deadlines``).

Revision ID: 0008_ratings
Revises: 0007_deals
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_ratings"
down_revision = "0007_deals"
branch_labels = None
depends_on = None


def _time(name: str) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False)


def _player(table: str, *, primary: bool) -> list[sa.schema.SchemaItem]:
    """The ``player_id`` column of ``table`` and its foreign key to ``online_players``."""
    return [
        sa.Column("player_id", sa.String(length=36), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["online_players.id"],
            name=op.f(f"fk_{table}_player_id_online_players"),
            ondelete="CASCADE",
        ),
    ] + ([sa.PrimaryKeyConstraint("player_id", name=op.f(f"pk_{table}"))] if primary else [])


def upgrade() -> None:
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(length=36), nullable=False),
        sa.Column("lobby_id", sa.String(length=36), nullable=False),
        sa.Column("ranked", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(length=20), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        _time("finished_at"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_rated_games_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["lobby_id"],
            ["online_lobbies.id"],
            name=op.f("fk_rated_games_lobby_id_online_lobbies"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_rated_games")),
    )
    op.create_index(op.f("ix_rated_games_lobby_id"), "rated_games", ["lobby_id"])
    op.create_table(
        "rated_places",
        sa.Column("game_id", sa.String(length=36), nullable=False),
        *_player("rated_places", primary=False),
        sa.Column("house", sa.String(length=60), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=True),
        sa.Column("sigma_before", sa.Float(), nullable=True),
        sa.Column("mu_after", sa.Float(), nullable=True),
        sa.Column("sigma_after", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["rated_games.game_id"],
            name=op.f("fk_rated_places_game_id_rated_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "player_id", name=op.f("pk_rated_places")),
    )
    op.create_index(op.f("ix_rated_places_player_id"), "rated_places", ["player_id"])
    op.create_table(
        "player_ratings",
        *_player("player_ratings", primary=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        _time("updated_at"),
    )
    op.create_index(op.f("ix_player_ratings_ordinal"), "player_ratings", ["ordinal"])
    op.create_table(
        "games_left",
        sa.Column("lobby_id", sa.String(length=36), nullable=False),
        *_player("games_left", primary=False),
        sa.Column("house", sa.String(length=60), nullable=False),
        _time("left_at"),
        sa.ForeignKeyConstraint(
            ["lobby_id"],
            ["online_lobbies.id"],
            name=op.f("fk_games_left_lobby_id_online_lobbies"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("lobby_id", "player_id", name=op.f("pk_games_left")),
    )
    op.create_index(op.f("ix_games_left_player_id"), "games_left", ["player_id"])
    op.create_table(
        "missed_deadlines",
        sa.Column("lobby_id", sa.String(length=36), nullable=False),
        *_player("missed_deadlines", primary=False),
        sa.Column("count", sa.Integer(), nullable=False),
        _time("last_at"),
        sa.ForeignKeyConstraint(
            ["lobby_id"],
            ["online_lobbies.id"],
            name=op.f("fk_missed_deadlines_lobby_id_online_lobbies"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("lobby_id", "player_id", name=op.f("pk_missed_deadlines")),
    )
    op.create_index(op.f("ix_missed_deadlines_player_id"), "missed_deadlines", ["player_id"])


def downgrade() -> None:
    op.drop_table("missed_deadlines")
    op.drop_index(op.f("ix_games_left_player_id"), table_name="games_left")
    op.drop_table("games_left")
    op.drop_index(op.f("ix_player_ratings_ordinal"), table_name="player_ratings")
    op.drop_table("player_ratings")
    op.drop_index(op.f("ix_rated_places_player_id"), table_name="rated_places")
    op.drop_table("rated_places")
    op.drop_index(op.f("ix_rated_games_lobby_id"), table_name="rated_games")
    op.drop_table("rated_games")
