"""All SQL of the recalculation's status as the read side shows it, and the results' stamp
(the answers' Last-Modified)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.ratings.changed_since import cached_utc
from zdb.ratings.schemas import (
    DirtyPosition,
    LastRun,
    RecalcProgress,
    RecalcStatus,
)
from zdb.timeline.state import RESULTS_STAMP_COLUMNS, current_run, read_state

__all__ = ["recalc_status", "results_stamp", "results_stamp_of"]


def recalc_status(session: Session) -> RecalcStatus:
    s = read_state(session)
    dirty = None
    if s.dirty_date is not None:
        assert s.dirty_phase is not None and s.dirty_text is not None and s.dirty_id is not None
        dirty = DirtyPosition(date=s.dirty_date, phase=s.dirty_phase, text=s.dirty_text, id=s.dirty_id)
    run = current_run(session)
    last = None
    if s.last_finished_at is not None or s.last_error is not None:
        last = LastRun(
            started_at=s.last_started_at,
            finished_at=s.last_finished_at,
            generation=s.last_generation,
            evaluated=s.last_evaluated,
            changed_players=s.last_changed_players,
            duration_ms=s.last_duration_ms,
            error=s.last_error,
        )
    return RecalcStatus(
        state="running" if run else "pending" if dirty is not None else "idle",
        generation=s.generation,
        dirty_position=dirty,
        dirty_since=s.dirty_since if dirty is not None else None,
        running_since=run[0] if run else None,
        progress=RecalcProgress(done=run[1], total=run[2]) if run else None,
        last_run=last,
    )


def results_stamp_of(row: Mapping[Any, Any]) -> datetime | None:
    stamps = (row[column.key] for column in RESULTS_STAMP_COLUMNS)
    return max((cached_utc(t) for t in stamps if t is not None), default=None)


def results_stamp(session: Session) -> datetime | None:
    """When the stored results last changed or began to: the recalculation's latest moment."""
    return results_stamp_of(session.execute(select(*RESULTS_STAMP_COLUMNS)).mappings().one())
