"""Thin, named, idempotent tasks around the recalculation service.

``zdb.recalculate`` brings the stored results up to date; running it twice does no harm (the
second run finds nothing pending). ``zdb.sweep`` (Celery beat) starts one whenever the dirty
position is set, so a lost message or a broker outage delays a recalculation, never loses it; it
also closes list imports whose worker was lost (``zdb.lists.lost_imports``) and records each of
its runs (``zdb.service_beats``), so that readiness and the metrics show a sweep that stopped.

At most one request waits in the queue (``request``): one run takes every change committed
before it starts, so a thousand submissions during a long run need one message after it, not a
thousand. A mark in Redis says that one waits; the task clears it as it starts (a change
committed after that sends the next one), and it expires by itself, so a message the broker
lost is sent again.

``zdb.forget-idempotency-keys`` (Celery beat, hourly) deletes the idempotency keys older than
their window (``Settings.idempotency_key_hours``) of every token.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from functools import cache
from typing import Any

import redis
from celery import Celery
from sqlalchemy.exc import InterfaceError, OperationalError

from workers.celery_app import app
from zdb.config import settings
from zdb.db import engine_for, unit_of_work
from zdb.endpoints.idempotency import forget_expired_keys
from zdb.lists.lost_imports import close_lost_imports
from zdb.recalculation.run import run_recalculation
from zdb.service_beats import SWEEP, record_beat
from zdb.timeline.state import is_dirty

__all__ = ["TRANSIENT_ERRORS", "clear_mark", "forget_idempotency_keys", "recalculate", "request", "set_mark", "sweep"]

_log = logging.getLogger(__name__)

_WAITING = "zdb:recalculation-waiting"
_WAITING_SECONDS = 60

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
    _clear_waiting(self.app)
    outcome = run_recalculation(engine_for(settings().database_url), from_scratch=from_scratch)
    if outcome.ran and not outcome.clean:
        request(self.app)  # changes arrived during the run: take them now
    return {"ran": outcome.ran, "evaluated": outcome.evaluated, "clean": outcome.clean}


@app.task(name="zdb.sweep", ignore_result=True)
def sweep() -> bool:
    """Record the sweep's run, close the imports whose worker was lost, and dispatch a
    recalculation if the time line is dirty; True if one was sent."""
    config = settings()
    engine = engine_for(config.database_url)
    with unit_of_work(engine) as session:
        # the health check and the metrics read this: a sweep that stops running is seen
        record_beat(session, SWEEP)
        lost = close_lost_imports(session, timedelta(seconds=config.import_lost_seconds))
    if lost:
        _log.warning("list imports %s lost their worker: marked failed", ", ".join(map(str, lost)))
    with engine.connect() as connection:
        dirty = is_dirty(connection)
    if not dirty:
        return False
    # Expires with the next sweep: a sweep's message that waited that long behind a run is
    # dropped (the next sweep sends a fresh one if still needed).
    return request(app, expires=settings().sweep_seconds)


@app.task(name="zdb.forget-idempotency-keys", ignore_result=True)
def forget_idempotency_keys() -> int:
    """Delete every token's expired idempotency keys; how many (idempotent: a second run finds none)."""
    config = settings()
    with unit_of_work(engine_for(config.database_url)) as session:
        return forget_expired_keys(session, timedelta(hours=config.idempotency_key_hours))


def request(celery: Celery, **options: Any) -> bool:
    """Queue a recalculation unless one already waits; True if one was sent."""
    if not set_mark(celery, _WAITING, _WAITING_SECONDS):
        return False
    try:
        celery.send_task("zdb.recalculate", **options)
    except Exception:
        clear_mark(celery, _WAITING)  # nothing waits after all: the next request may send
        raise
    return True


def set_mark(celery: Celery, name: str, seconds: int) -> bool:
    """Mark that a message ``name`` waits, for ``seconds`` at most; False if one waits already."""
    mark = _marks(celery.conf.broker_url)
    return mark is None or bool(mark.set(name, "1", nx=True, ex=seconds))


def clear_mark(celery: Celery, name: str) -> None:
    mark = _marks(celery.conf.broker_url)
    if mark is None:
        return
    try:
        mark.delete(name)
    except redis.RedisError:  # the mark expires by itself: the next message waits that long at most
        _log.warning("could not clear the waiting mark %s", name, exc_info=True)


def _clear_waiting(celery: Celery) -> None:
    clear_mark(celery, _WAITING)


@cache
def _marks(broker_url: str) -> redis.Redis | None:
    """The broker's Redis, where the waiting mark lives (None for another broker: every
    request is sent)."""
    return redis.Redis.from_url(broker_url) if broker_url.startswith(("redis://", "rediss://")) else None
