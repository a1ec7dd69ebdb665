"""Local games keep their deal book (issue 15 point 4: deals between the person and the AIs)
in ``deal_books``, one JSON document per game; games stored before this revision have none.

Revision ID: 0007_deals
Revises: 0006_setup_seat_personality
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0007_deals"
down_revision = "0006_setup_seat_personality"
branch_labels = None
depends_on = None


def json_column() -> sa.types.TypeEngine:
    """JSON: ``json`` on PostgreSQL, text elsewhere (models.JSONDocument)."""
    return sa.Text().with_variant(postgresql.JSON(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "deal_books",
        sa.Column("game_id", sa.String(length=36), nullable=False),
        sa.Column("book", json_column(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_deal_books_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_deal_books")),
    )


def downgrade() -> None:
    op.drop_table("deal_books")
