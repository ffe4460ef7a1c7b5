"""The canonical content of a submission waiting in review, as a hash: two equal submissions
racing each other are never both held (a unique key over the waiting ones).

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-05 01:45:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("reviews") as batch:
        batch.add_column(sa.Column("fingerprint", sa.String(length=64), nullable=True))
    # only the waiting ones: a decided review no longer holds its content (reviews held before
    # this revision have none, and are still found by their stored submission)
    op.create_index(
        "uq_reviews_waiting_fingerprint",
        "reviews",
        ["fingerprint"],
        unique=True,
        postgresql_where=sa.text("state = 'waiting'"),
        sqlite_where=sa.text("state = 'waiting'"),
    )


def downgrade() -> None:
    op.drop_index("uq_reviews_waiting_fingerprint", table_name="reviews")
    with op.batch_alter_table("reviews") as batch:
        batch.drop_column("fingerprint")
