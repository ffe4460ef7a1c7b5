"""A tournament's life in the federation: the fingerprints that find a tournament submitted twice.

Revision ID: 0013
Revises: 0010
Create Date: 2026-12-04 19:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_fingerprints",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_fingerprints_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_tournament_fingerprints")),
        sa.UniqueConstraint("fingerprint", name=op.f("uq_tournament_fingerprints_fingerprint")),
    )


def downgrade() -> None:
    op.drop_table("tournament_fingerprints")
