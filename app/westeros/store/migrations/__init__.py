"""Alembic migrations of the store, from the first table (DESIGN §5)."""
