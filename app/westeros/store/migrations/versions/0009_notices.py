"""Turn notices outside the game (issue 40, ``store.notices``): each player's channels and
language, browsers' push subscriptions, a game's webhook, the decision last announced per
game and house, and the server's own keys (VAPID, the unsubscribe secret).

Revision ID: 0009_notices
Revises: 0008_ratings
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_notices"
down_revision = "0008_ratings"
branch_labels = None
depends_on = None


def _time(name: str, *, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "notice_settings",
        sa.Column("player_id", sa.String(length=36), nullable=False),
        sa.Column("language", sa.String(length=20), nullable=False),
        sa.Column("site", sa.String(length=200), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("email_verified", sa.Boolean(), nullable=False),
        sa.Column("email_on", sa.Boolean(), nullable=False),
        sa.Column("email_token_hash", sa.String(length=64), nullable=True),
        _time("email_token_at", nullable=True),
        sa.Column("push_on", sa.Boolean(), nullable=False),
        sa.Column("webhook_url", sa.String(length=500), nullable=True),
        sa.Column("webhook_on", sa.Boolean(), nullable=False),
        _time("updated_at"),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["online_players.id"],
            name=op.f("fk_notice_settings_player_id_online_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_notice_settings")),
    )
    op.create_index(
        op.f("ix_notice_settings_email_token_hash"), "notice_settings", ["email_token_hash"]
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=36), nullable=False),
        sa.Column("endpoint", sa.String(length=1000), nullable=False),
        sa.Column("p256dh", sa.String(length=200), nullable=False),
        sa.Column("auth", sa.String(length=100), nullable=False),
        _time("created_at"),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["online_players.id"],
            name=op.f("fk_push_subscriptions_player_id_online_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
        sa.UniqueConstraint("endpoint", name=op.f("uq_push_subscriptions_endpoint")),
    )
    op.create_index(op.f("ix_push_subscriptions_player_id"), "push_subscriptions", ["player_id"])
    op.create_table(
        "notice_game_webhooks",
        sa.Column("lobby_id", sa.String(length=36), nullable=False),
        sa.Column("url", sa.String(length=500), nullable=False),
        sa.Column("language", sa.String(length=20), nullable=False),
        sa.Column("site", sa.String(length=200), nullable=False),
        _time("updated_at"),
        sa.ForeignKeyConstraint(
            ["lobby_id"],
            ["online_lobbies.id"],
            name=op.f("fk_notice_game_webhooks_lobby_id_online_lobbies"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("lobby_id", name=op.f("pk_notice_game_webhooks")),
    )
    op.create_table(
        "notice_decisions",
        sa.Column("game_id", sa.String(length=36), nullable=False),
        sa.Column("house", sa.String(length=60), nullable=False),
        sa.Column("decision", sa.String(length=64), nullable=False),
        _time("updated_at"),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_notice_decisions_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "house", name=op.f("pk_notice_decisions")),
    )
    op.create_table(
        "notice_keys",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        _time("created_at"),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_notice_keys")),
    )


def downgrade() -> None:
    op.drop_table("notice_keys")
    op.drop_table("notice_decisions")
    op.drop_table("notice_game_webhooks")
    op.drop_index(op.f("ix_push_subscriptions_player_id"), table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_index(op.f("ix_notice_settings_email_token_hash"), table_name="notice_settings")
    op.drop_table("notice_settings")
