"""The recalculation's state row (``recalc_state``, id 1): every read and write of it.

The row holds the time line's dirty position and generation (moved by every change, in the
submitter's transaction), the running run's marks (since when, how far; on PostgreSQL written
aside on a connection of its own) and the last run's figures. Keeping all its statements here
keeps their locking rules in one place: submitters take the row FOR UPDATE in turn; a run
reads the generation at its start and clears the dirty position at its end only if the
generation has not moved meanwhile.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime

from sqlalchemy import Connection, select, update
from sqlalchemy.orm import Session

from zdb.db import database_key, is_postgres
from zdb.locks import RECALCULATION, held
from zdb.rating import OrderKey
from zdb.timeline import live_progress
from zdb.timeline.models import RecalcState

__all__ = [
    "RESULTS_STAMP_COLUMNS",
    "current_run",
    "dirty_position",
    "dirty_since",
    "finish_run",
    "is_dirty",
    "locked_state",
    "read_state",
    "recalc_running",
    "run_start",
    "write_aside",
]

_ROW = RecalcState.id == 1


def read_state(session: Session) -> RecalcState:
    return session.execute(select(RecalcState).where(_ROW)).scalar_one()


def locked_state(session: Session) -> RecalcState:
    """The row, locked until the transaction ends (FOR UPDATE): concurrent submitters take turns
    on it; a running recalculation never holds it for long (it updates it only at its very end)."""
    return session.execute(select(RecalcState).where(_ROW).with_for_update()).scalar_one()


def dirty_position(state: RecalcState) -> OrderKey | None:
    if state.dirty_date is None:
        return None
    assert state.dirty_phase is not None and state.dirty_text is not None and state.dirty_id is not None
    return (state.dirty_date, state.dirty_phase, state.dirty_text, state.dirty_id)


def dirty_since(session: Session) -> date | None:
    """The date of the earliest change waiting for a recalculation (None: nothing waits)."""
    return session.execute(select(RecalcState.dirty_date).where(_ROW)).scalar()


def is_dirty(bind: Session | Connection) -> bool:
    """Whether changes wait for a recalculation."""
    return bind.execute(select(RecalcState.dirty_date).where(_ROW)).scalar() is not None


def run_start(session: Session) -> tuple[int, date | None]:
    """The generation and the dirty date a run starts from."""
    row = session.execute(select(RecalcState.generation, RecalcState.dirty_date).where(_ROW)).one()
    return row.generation, row.dirty_date


def finish_run(session: Session, generation: int, figures: Mapping[str, object]) -> bool:
    """Record a run's figures; clear the dirty position only if the generation is still the
    run's (True), else leave it for the next run (False: changes arrived meanwhile)."""
    cleared = session.execute(
        update(RecalcState)
        .where(_ROW, RecalcState.generation == generation)
        .values(dirty_date=None, dirty_phase=None, dirty_text=None, dirty_id=None, dirty_since=None, **figures)
    )
    if cleared.rowcount:  # type: ignore[attr-defined]
        return True
    session.execute(update(RecalcState).where(_ROW).values(**figures))
    return False


def write_aside(connection: Connection, **values: object) -> None:
    """Write the row outside any run's transaction (the run's marks, a failed run's record)."""
    connection.execute(update(RecalcState).where(_ROW).values(**values))
    connection.commit()


def recalc_running(session: Session) -> bool:
    return current_run(session) is not None


def current_run(session: Session) -> tuple[datetime, int, int] | None:
    """The recalculation running now, if one is: since when, tournaments done and to do.

    PostgreSQL: a run that marked itself running and still holds the lock (a run killed
    half-way leaves its marks behind until the next run). SQLite: a run in this process
    (``live_progress``; the database has one writer, and during a run that is the run)."""
    bind = session.get_bind()
    if not is_postgres(bind):
        live = live_progress.current(database_key(bind))
        return None if live is None else (live.since, live.done, live.total)
    s = RecalcState
    row = session.execute(select(s.running_since, s.progress_done, s.progress_total).where(s.id == 1)).one()
    if row.running_since is None or not held(session, RECALCULATION):
        return None
    return row.running_since, row.progress_done, row.progress_total


_RS = RecalcState
#: when the stored results last changed or began to, as columns to add to any statement (the
#: recalculation's latest moments); ``zdb.ratings.status_queries.results_stamp_of`` reads them
RESULTS_STAMP_COLUMNS = tuple(
    select(column).where(_RS.id == 1).scalar_subquery().label(f"results_{column.key}")
    for column in (_RS.last_finished_at, _RS.running_since, _RS.last_started_at)
)
