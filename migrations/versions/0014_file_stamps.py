"""When each club file last changed: ``file_stamps`` (``zdb.ratings.file_stamps``), so that the
files' ``Last-Modified`` moves with their content only.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-04 20:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "file_stamps",
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("tag", sa.String(64), nullable=False),
        sa.Column("modified_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_file_stamps")),
    )


def downgrade() -> None:
    op.drop_table("file_stamps")
