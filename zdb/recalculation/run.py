"""Running one recalculation as its own unit of work, with its progress and its outcome
written aside.

Progress (tournaments done / to do) goes through a separate autocommit connection, so that it
is readable while the run's own transaction is still open. A run marks itself running only
once it holds the recalculation lock: a run that finds another one under way leaves that run's
marks alone. Whoever starts a run may follow it through a ``report`` callback (done, total);
printing is the command line's affair. A run that fails leaves its error where staff read the status (the run's own
transaction is rolled back, so it is written afterwards, on a connection of its own).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from zdb.common.collector import collector_paused
from zdb.config import settings
from zdb.db import database_key, is_postgres, unit_of_work
from zdb.rating.kernel import use_compiled
from zdb.recalculation.recalculate import RecalcOutcome, recalculate
from zdb.timeline import live_progress
from zdb.timeline.state import write_aside

__all__ = ["run_recalculation"]

_log = logging.getLogger(__name__)

#: the longest error text kept for the status (a driver's message with its detail lines)
_ERROR_LENGTH = 2000


class _ProgressWriter:
    """Where a run says how far it is: a connection of its own on PostgreSQL, this process's
    memory on SQLite (``live_progress``: the database has one writer, and that is the run)."""

    def __init__(self, engine: Engine, report: Callable[[int, int], None] | None) -> None:
        self._engine = engine
        self._aside = is_postgres(engine)
        self._database = database_key(engine)
        self._report = report
        self.started = False  # this run holds the lock and has marked itself running

    def start(self) -> None:
        """The run holds the lock: it is the one running now."""
        self.started = True
        now = datetime.now(UTC)
        if self._aside:
            self._write(running_since=now, progress_done=0, progress_total=0)
        else:
            live_progress.started(self._database, now)

    def __call__(self, done: int, total: int) -> None:
        if self._aside:
            self._write(progress_done=done, progress_total=total)
        else:
            live_progress.advanced(self._database, done, total)
        if self._report is not None:
            self._report(done, total)

    def stop(self) -> None:
        """The run has ended: nothing is running any more."""
        if self._aside:
            self._write(running_since=None)
        else:
            live_progress.finished(self._database)

    def forget(self) -> None:
        """The run failed: on SQLite, nothing is running any more (on PostgreSQL the failure's
        record clears the mark, ``_record_failure``)."""
        if self.started and not self._aside:
            live_progress.finished(self._database)

    def _write(self, **values: object) -> None:
        # Outside the run's transaction, so that others can read it now.
        with self._engine.connect() as connection:
            write_aside(connection, **values)


def _error_text(error: Exception) -> str:
    """What went wrong, as the database driver or the code said it (without the statement and
    its parameters, which SQLAlchemy's own message repeats)."""
    cause = error.orig if isinstance(error, DBAPIError) and error.orig is not None else error
    return f"{type(cause).__name__}: {cause}".strip()[:_ERROR_LENGTH]


def _record_failure(engine: Engine, began: datetime, error: Exception, was_running: bool) -> None:
    """The failed run as the status's last run: when it began and ended, and its error. The
    figures of an earlier run are cleared, so that they are not read as this run's."""
    values: dict[str, object] = {
        "last_started_at": began,
        "last_finished_at": datetime.now(UTC),
        "last_generation": None,
        "last_evaluated": None,
        "last_changed_players": None,
        "last_duration_ms": int((datetime.now(UTC) - began).total_seconds() * 1000),
        "last_error": _error_text(error),
    }
    if was_running:
        values["running_since"] = None
    try:
        with engine.connect() as connection:
            write_aside(connection, **values)
    except SQLAlchemyError:  # the database itself may be what failed: the error is raised anyway
        _log.warning("could not record the failed recalculation's error", exc_info=True)


def run_recalculation(
    engine: Engine, *, from_scratch: bool = False, report: Callable[[int, int], None] | None = None
) -> RecalcOutcome:
    """One run in one transaction; the transaction commits only if the run completes. ``report``
    hears (done, total) as tournaments are evaluated."""
    progress = _ProgressWriter(engine, report)
    began = datetime.now(UTC)
    use_compiled(settings().compiled_kernel)
    try:
        with collector_paused(), unit_of_work(engine) as session:
            outcome = recalculate(session, from_scratch=from_scratch, progress=progress, started=progress.start)
    except Exception as error:
        progress.forget()
        _record_failure(engine, began, error, progress.started)
        raise
    if progress.started:
        progress.stop()
    return outcome
