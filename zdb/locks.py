"""Transaction-scoped locks that serialise the few writers who hand out numbers.

Tournament ids and person numbers are given as "the highest so far + 1"; two concurrent
submissions would otherwise both read the same highest number. On PostgreSQL an advisory lock
held until the transaction ends makes them take turns; SQLite serialises writers by itself.
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.orm import Session

__all__ = ["PERSON_NUMBERS", "TOURNAMENT_IDS", "hold"]

TOURNAMENT_IDS = 0x5A444201
PERSON_NUMBERS = 0x5A444202


def hold(session: Session, key: int) -> None:
    """Take the lock ``key`` until the session's transaction ends."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})
