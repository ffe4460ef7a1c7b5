"""Stale evaluations: a person's fact changed (a birth year learned), so the stored evaluations
of every tournament he played must be redone although no new version was submitted.

``stale_generation`` holds the time line's generation at which the mark was set; a
recalculation clears only marks set at or before the generation it started from (a mark made
during a run survives it, and the next run takes the tournament again).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02 18:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("stale_generation", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("stale_generation")
