"""The rating office's records: a dissolved club or federation keeps its row with the day it
was dissolved, and a person number absorbed by a merge names the surviving one.

Revision ID: 0007
Revises: 0005
Create Date: 2026-12-02 21:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("clubs") as batch:
        batch.add_column(sa.Column("dissolved_on", sa.Date(), nullable=True))
    with op.batch_alter_table("federations") as batch:
        batch.add_column(sa.Column("dissolved_on", sa.Date(), nullable=True))
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("merged_into", sa.BigInteger(), nullable=True))
        batch.create_foreign_key(op.f("fk_players_merged_into_players"), "players", ["merged_into"], ["pkz"])


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint(op.f("fk_players_merged_into_players"), type_="foreignkey")
        batch.drop_column("merged_into")
    with op.batch_alter_table("federations") as batch:
        batch.drop_column("dissolved_on")
    with op.batch_alter_table("clubs") as batch:
        batch.drop_column("dissolved_on")
