"""Marking the time line dirty: every change to it (a submission, a correction, a withdrawal,
a start rating) moves the dirty position back to its place and bumps the generation, in the
submitter's transaction. The unit of work dispatches a recalculation after it commits."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from zdb.db import after_commit
from zdb.rating import OrderKey
from zdb.timeline.recalc_dispatch import request_recalculation
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
    after_commit(session, request_recalculation)
    return state.generation
