"""Running one recalculation as its own unit of work, with progress written aside.

Progress (tournaments done / to do) goes through a separate autocommit connection, so that it
is readable while the run's own transaction is still open.
"""

from __future__ import annotations

import gc
from datetime import UTC, datetime

import click
from sqlalchemy import Engine, update

from zdb.db import unit_of_work
from zdb.ratings.models import RecalcState
from zdb.ratings.recalc import RecalcOutcome, recalculate

__all__ = ["run_recalculation"]


class _ProgressWriter:
    def __init__(self, engine: Engine, show: bool) -> None:
        self._engine = engine
        self._show = show
        self._last = -1

    def __call__(self, done: int, total: int) -> None:
        if self._engine.dialect.name == "postgresql":
            # Outside the run's transaction, so that others can read it now. SQLite holds one
            # writer at a time: there the run's figures appear when it commits.
            with self._engine.connect() as connection:
                connection.execute(
                    update(RecalcState).where(RecalcState.id == 1).values(progress_done=done, progress_total=total)
                )
                connection.commit()
        if self._show and done != self._last:
            click.echo(f"\r{done}/{total} tournaments", nl=False, err=True)
            self._last = done


def run_recalculation(engine: Engine, *, from_scratch: bool = False, show_progress: bool = False) -> RecalcOutcome:
    """One run in one transaction; the transaction commits only if the run completes."""
    progress = _ProgressWriter(engine, show_progress)
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            connection.execute(
                update(RecalcState).where(RecalcState.id == 1).values(running_since=datetime.now(UTC), progress_done=0)
            )
            connection.commit()
    # A run allocates millions of small objects and frees them in bulk at the end; the cyclic
    # collector's scans over that heap would cost more than the run (none of it forms cycles).
    collecting = gc.isenabled()
    gc.disable()
    try:
        with unit_of_work(engine) as session:
            outcome = recalculate(session, from_scratch=from_scratch, progress=progress)
    finally:
        if collecting:
            gc.enable()
        if engine.dialect.name == "postgresql":
            with engine.connect() as connection:
                connection.execute(update(RecalcState).where(RecalcState.id == 1).values(running_since=None))
                connection.commit()
    if show_progress:
        click.echo("", err=True)
    return outcome
