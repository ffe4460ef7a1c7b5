"""Marking the time line dirty: every change to it (a submission, a correction, a withdrawal,
a start rating) moves the dirty position back to its place and bumps the generation, in the
submitter's transaction. The unit of work dispatches a recalculation after it commits."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.db import after_commit
from zdb.rating import OrderKey
from zdb.ratings.dispatch import request_recalculation
from zdb.ratings.models import RecalcState

__all__ = ["dirty_position", "mark_dirty"]


def mark_dirty(session: Session, keys: Iterable[OrderKey]) -> int | None:
    """Move the dirty position back to the earliest of ``keys``; the new generation (None: no key)."""
    wanted = list(keys)
    if not wanted:
        return None
    # FOR UPDATE: concurrent submitters take turns on the one row; a running recalculation
    # never holds it for long (it updates it only at its very end).
    state = session.execute(select(RecalcState).where(RecalcState.id == 1).with_for_update()).scalar_one()
    position = min(wanted)
    current = dirty_position(state)
    if current is None or position < current:
        state.dirty_date, state.dirty_phase, state.dirty_text, state.dirty_id = position
    state.generation += 1
    session.flush()
    after_commit(session, request_recalculation)
    return state.generation


def dirty_position(state: RecalcState) -> OrderKey | None:
    if state.dirty_date is None:
        return None
    assert state.dirty_phase is not None and state.dirty_text is not None and state.dirty_id is not None
    return (state.dirty_date, state.dirty_phase, state.dirty_text, state.dirty_id)
