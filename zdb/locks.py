"""Transaction-scoped locks that serialise the few writers who hand out numbers, and the
recalculation.

Tournament ids and person numbers are given as "the highest so far + 1"; two concurrent
submissions would otherwise both read the same highest number. On PostgreSQL an advisory lock
held until the transaction ends makes them take turns; SQLite serialises writers by itself.
A recalculation holds ``RECALCULATION`` for its whole run: whether a run is alive is whether
some transaction holds it (a killed run's lock goes with its connection).
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.orm import Session

__all__ = ["PERSON_NUMBERS", "RECALCULATION", "TOURNAMENT_IDS", "held", "hold"]

TOURNAMENT_IDS = 0x5A444201
PERSON_NUMBERS = 0x5A444202
RECALCULATION = 0x5A4442  # "ZDB" in ASCII


def hold(session: Session, key: int) -> None:
    """Take the lock ``key`` until the session's transaction ends."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def held(session: Session, key: int) -> bool | None:
    """Whether a transaction holds the lock ``key`` in this database now; None where nothing
    can tell (SQLite)."""
    if session.get_bind().dialect.name != "postgresql":
        return None
    # A bigint key is stored as classid (high half), objid (low half) and objsubid 1.
    found = session.execute(
        text(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND classid = CAST(:high AS oid) AND objid = CAST(:low AS oid) AND objsubid = 1)"
        ),
        {"high": key >> 32, "low": key & 0xFFFFFFFF},
    ).scalar()
    return bool(found)
