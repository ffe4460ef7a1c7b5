"""Thin, named, idempotent tasks around the recalculation service.

``zdb.recalculate`` brings the stored results up to date; running it twice does no harm (the
second run finds nothing pending). ``zdb.sweep`` (Celery beat) starts one whenever the dirty
position is set, so a lost message or a broker outage delays a recalculation, never loses it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import InterfaceError, OperationalError

from workers.celery_app import app
from zdb.config import settings
from zdb.db import engine_for
from zdb.ratings.models import RecalcState
from zdb.ratings.runner import run_recalculation

__all__ = ["TRANSIENT_ERRORS", "recalculate", "sweep"]

#: Errors worth another attempt: the server could not be reached or the connection broke
#: (OperationalError, InterfaceError), or the server gave up on the transaction and asks for
#: it again (deadlock, serialisation failure and shutdown are OperationalErrors in psycopg).
#: A broken constraint or a bug fails the same way every time: it is recorded
#: (``runner``) and raised at once, not retried for minutes.
TRANSIENT_ERRORS = (OperationalError, InterfaceError)


@app.task(
    name="zdb.recalculate",
    bind=True,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=2,
    retry_backoff_max=120,
    retry_jitter=True,
    max_retries=6,
)
def recalculate(self: Any, from_scratch: bool = False) -> dict[str, Any]:
    outcome = run_recalculation(engine_for(settings().database_url), from_scratch=from_scratch)
    if outcome.ran and not outcome.clean:
        self.apply_async()  # changes arrived during the run: take them now
    return {"ran": outcome.ran, "evaluated": outcome.evaluated, "clean": outcome.clean}


@app.task(name="zdb.sweep", ignore_result=True)
def sweep() -> bool:
    """Dispatch a recalculation if the time line is dirty; True if one was sent."""
    engine = engine_for(settings().database_url)
    with engine.connect() as connection:
        dirty = connection.execute(select(RecalcState.dirty_date).where(RecalcState.id == 1)).scalar()
    if dirty is None:
        return False
    # Expires with the next sweep: while a long run keeps the worker busy, the sweeps' messages
    # are dropped instead of queueing up (the next sweep sends a fresh one if still needed).
    recalculate.apply_async(expires=settings().sweep_seconds)
    return True


def dispatch() -> None:
    """The production dispatcher (``zdb.ratings.dispatch.set_dispatcher``)."""
    recalculate.delay()
