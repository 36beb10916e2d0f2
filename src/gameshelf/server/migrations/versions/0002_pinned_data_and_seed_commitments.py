"""Card sets pinned by digest and the secret half of each match's seed commitment.

Matches made before have no extras row: they load as before (their card option, if any, must
name a set the server knows) and publish no commitment.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``card_sets`` and ``match_extras``."""
    op.create_table(
        "card_sets",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
    )
    op.create_table(
        "match_extras",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("data_option", sa.String(32), nullable=True),
        sa.Column("data_name", sa.String(64), nullable=True),
        sa.Column("data_digest", sa.String(64), nullable=True),
        sa.Column("seed_salt", sa.String(64), nullable=True),
        sa.Column("seed_chosen_by_client", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    """Drop the two tables (matches keep playing, without pins or commitments)."""
    op.drop_table("match_extras")
    op.drop_table("card_sets")
