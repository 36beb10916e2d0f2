"""Alembic migrations of the server's database (``gameshelf db upgrade``, also run at start-up)."""
