"""Player profiles and settings; seats may name the profile that plays them.

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def json_column() -> sa.types.TypeEngine:
    """JSON: ``json`` on PostgreSQL, text elsewhere (models.JSONDocument)."""
    return sa.Text().with_variant(postgresql.JSON(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("settings", json_column(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_profiles")),
        sa.UniqueConstraint("name", name=op.f("uq_profiles_name")),
    )
    op.create_table(
        "settings",
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("value", json_column(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_settings")),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("profile_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            op.f("fk_seats_profile_id_profiles"),
            "profiles",
            ["profile_id"],
            ["id"],
            ondelete="SET NULL",
        )


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint(op.f("fk_seats_profile_id_profiles"), type_="foreignkey")
        batch.drop_column("profile_id")
    op.drop_table("settings")
    op.drop_table("profiles")
