"""Resignations: the seat that gave a match up (a voluntary flag, clocked match or not).

A match without a ``match_resignations`` row was not resigned (as every match made before).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``match_resignations``."""
    op.create_table(
        "match_resignations",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the resignation table (resigned matches stay finished, with their stored result)."""
    op.drop_table("match_resignations")
