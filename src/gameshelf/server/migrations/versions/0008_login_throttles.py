"""Log-in limits shared by every server process: per-name buckets of password tries and the
browsers known to have logged in to an account (they are not slowed by strangers' guesses).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``login_throttles`` and ``login_devices``."""
    op.create_table(
        "login_throttles",
        sa.Column("name_key", sa.String(64), primary_key=True),
        sa.Column("tokens", sa.Float(), nullable=False),
        sa.Column("stamp", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "login_devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_login_devices_account_id", "login_devices", ["account_id"])
    op.create_index("ix_login_devices_expires", "login_devices", ["expires"])


def downgrade() -> None:
    """Drop both tables (per-name limits start afresh)."""
    op.drop_table("login_devices")
    op.drop_table("login_throttles")
