"""When the time line became dirty: ``recalc_state.dirty_since``, the operator's dirty age.

A database that is dirty at the upgrade counts its age from the upgrade (the moment of the
oldest waiting change was not recorded before).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 22:10:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("recalc_state") as batch_op:
        batch_op.add_column(sa.Column("dirty_since", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE recalc_state SET dirty_since = CURRENT_TIMESTAMP WHERE dirty_date IS NOT NULL")


def downgrade() -> None:
    with op.batch_alter_table("recalc_state") as batch_op:
        batch_op.drop_column("dirty_since")
