"""Heartbeats of the background work: ``list_imports.heartbeat_at`` (a running import's worker
writes it while it runs, so that an import whose worker died is found and closed) and
``service_beats`` (the sweep records when it last ran, for the health check and the metrics).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04 19:45:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("list_imports") as batch_op:
        batch_op.add_column(sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "service_beats",
        sa.Column("name", sa.String(length=40), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("service_beats")
    with op.batch_alter_table("list_imports") as batch_op:
        batch_op.drop_column("heartbeat_at")
