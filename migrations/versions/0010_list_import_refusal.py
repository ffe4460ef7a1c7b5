"""Why a refused import was refused, as the pages translate it: ``list_imports.refusal``.

Imports refused before the upgrade keep their English ``error`` only; the pages show that.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03 02:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("list_imports") as batch_op:
        batch_op.add_column(sa.Column("refusal", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("list_imports") as batch_op:
        batch_op.drop_column("refusal")
