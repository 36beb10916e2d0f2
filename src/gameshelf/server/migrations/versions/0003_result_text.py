"""A finished match's result in words, stored with it, so lists show it without a replay.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``matches.result_text`` (empty for matches finished before)."""
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("result_text", sa.Text(), nullable=True))


def downgrade() -> None:
    """Drop ``matches.result_text``."""
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("result_text")
