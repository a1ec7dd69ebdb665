"""Games record which state hash their log uses: 1, the format before the versioned state
encoding (SHA-256 of a ``repr``), for every game stored until now; 2, the hash of
``westeros.engine.encoding``. The store rewrites a format-1 game to format 2 the first time
it reads it, after replaying it and checking every format-1 hash (``store/legacy.py``).

Revision ID: 0004_state_encoding
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_state_encoding"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("hash_format", sa.Integer(), nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("hash_format")
