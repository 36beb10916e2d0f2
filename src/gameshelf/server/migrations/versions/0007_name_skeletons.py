"""Account name keys become look-alike skeletons (UTS 39), so "раula" in Cyrillic and "paula"
are one name.

Each account's ``name_key`` is recomputed from its display name. Where two existing accounts
share a skeleton, the older one takes it and the later keeps its case-folded key (it still
logs in: a log-in also looks the old key up); a key that would not fit the column stays too.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

ACCOUNTS = sa.table(
    "accounts",
    sa.column("id", sa.Integer()),
    sa.column("name", sa.String()),
    sa.column("name_key", sa.String()),
)


def upgrade() -> None:
    """Rewrite every account's key as its name's skeleton, oldest account first."""
    from gameshelf.server.names import skeleton  # the one definition, as it is today

    bind = op.get_bind()
    rows = bind.execute(
        sa.select(ACCOUNTS.c.id, ACCOUNTS.c.name, ACCOUNTS.c.name_key).order_by(ACCOUNTS.c.id)
    ).all()
    taken = {key for _, _, key in rows}
    for ident, name, key in rows:
        new = skeleton(name)
        if new == key or new in taken or len(new) > 64:
            continue
        taken.discard(key)
        taken.add(new)
        bind.execute(sa.update(ACCOUNTS).where(ACCOUNTS.c.id == ident).values(name_key=new))


def downgrade() -> None:
    """Back to case-folded keys (the skeleton's extra collisions cannot clash: they only
    merge names, so the case-folded keys are distinct again)."""
    bind = op.get_bind()
    for ident, name in bind.execute(sa.select(ACCOUNTS.c.id, ACCOUNTS.c.name)).all():
        bind.execute(
            sa.update(ACCOUNTS).where(ACCOUNTS.c.id == ident).values(name_key=name.casefold())
        )
