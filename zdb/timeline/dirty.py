"""Marking the time line dirty: every change to it (a submission, a correction, a withdrawal,
a start rating) moves the dirty position back to its place and bumps the generation, in the
submitter's transaction, with the request for a run written into the outbox (``zdb.outbox``) in the
same transaction: a change is never committed without it."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from zdb.outbox.seam import enqueue
from zdb.rating import OrderKey
from zdb.timeline.state import dirty_position, locked_state

__all__ = ["mark_dirty"]


def mark_dirty(session: Session, keys: Iterable[OrderKey]) -> int | None:
    """Move the dirty position back to the earliest of ``keys``; the new generation (None: no key)."""
    wanted = list(keys)
    if not wanted:
        return None
    state = locked_state(session)
    position = min(wanted)
    current = dirty_position(state)
    if current is None:
        state.dirty_since = datetime.now(UTC)
    if current is None or position < current:
        state.dirty_date, state.dirty_phase, state.dirty_text, state.dirty_id = position
    state.generation += 1
    session.flush()
    enqueue(session, "recalculate", {"generation": state.generation})
    return state.generation
