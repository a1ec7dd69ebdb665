"""Seats record the AI personality that plays them (the start screen's choice per AI seat).
Seats stored before this revision get the empty text: the balanced default they played with.

Revision ID: 0006_setup_seat_personality
Revises: 0005_online
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_setup_seat_personality"
down_revision = "0005_online"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(
            sa.Column("personality", sa.String(length=60), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("personality")
