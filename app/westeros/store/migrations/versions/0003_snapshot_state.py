"""Snapshots hold the whole state, so that a game resumes from its latest snapshot.

Older snapshots (schema version 1) keep a NULL state; they are ignored when loading, which
then replays the log from the first state.

Revision ID: 0003
Revises: 0002
Create Date: 2025-01-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def json_column() -> sa.types.TypeEngine:
    """JSON: ``json`` on PostgreSQL, text elsewhere (models.NullableJSON)."""
    return sa.Text().with_variant(postgresql.JSON(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("snapshots") as batch:
        batch.add_column(sa.Column("state", json_column(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("snapshots") as batch:
        batch.drop_column("state")
