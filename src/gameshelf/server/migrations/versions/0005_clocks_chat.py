"""Clocks of matches, their chat and the rematch that followed each.

A match without a ``match_clocks`` row has no clock (as every match made before); one without
``match_rematches`` row has had no rematch.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``match_clocks``, ``chat_messages`` and ``match_rematches``."""
    op.create_table(
        "match_clocks",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("initial_ms", sa.BigInteger(), nullable=False),
        sa.Column("increment_ms", sa.BigInteger(), nullable=False),
        sa.Column("per_move_ms", sa.BigInteger(), nullable=False),
        sa.Column("remaining_ms", sa.JSON(), nullable=False),
        sa.Column("turn_started", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("flagged", sa.Integer(), nullable=True),
    )
    op.create_index("ix_match_clocks_deadline", "match_clocks", ["deadline"])
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_match_id", "chat_messages", ["match_id"])
    op.create_table(
        "match_rematches",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("next_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the clock, chat and rematch tables (the matches stay, without clocks)."""
    op.drop_table("match_rematches")
    op.drop_table("chat_messages")
    op.drop_table("match_clocks")
