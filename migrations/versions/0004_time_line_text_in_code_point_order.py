"""Time-line texts compare in code-point order, whatever the database's collation.

The time line orders tournaments of one end date by acronym "compared as a plain string"
(spec §2), and the engine compares Python strings by code point. The stored history is read
back in that order (its primary key) and compared with the engine's keys; under a linguistic
collation (``en_US.utf8``, the default of many PostgreSQL installations) ``abc`` sorts before
``ABD`` in the database and after it in the engine. The columns the time line is ordered by
take the "C" collation: byte order, which for UTF-8 is code-point order. SQLite compares
bytes already.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 22:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_COLUMNS = (("rating_history", "event_text", 40), ("tournament_versions", "acronym", 3))


def _collate(collation: str | None) -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table, column, length in _COLUMNS:
        op.alter_column(
            table,
            column,
            type_=sa.String(length, collation=collation),
            existing_type=sa.String(length),
            existing_nullable=False,
        )


def upgrade() -> None:
    _collate("C")


def downgrade() -> None:
    _collate("default")
