"""Writing a message into the outbox, and waking the relay once it is committed.

``enqueue`` adds the row in the caller's transaction (flushes, never commits). Once that
transaction commits, the relay of the database is woken (``set_waker``: the serving process
registers its relay thread, or a sender of the Celery relay task); a lost wake-up only delays
the message until the relay's next poll (``Settings.outbox_poll_seconds``): the row is what counts.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine
from sqlalchemy.orm import Session

from zdb.db import after_commit, database_key
from zdb.outbox.models import OutboxMessage

__all__ = ["clear_waker", "enqueue", "set_waker", "wake"]

_log = logging.getLogger(__name__)

#: per database (its key): what wakes its relay in this process
_wakers: dict[str, Callable[[], None]] = {}


def set_waker(engine: Engine, waker: Callable[[], None]) -> None:
    _wakers[database_key(engine)] = waker


def clear_waker(engine: Engine) -> None:
    _wakers.pop(database_key(engine), None)


def wake(key: str) -> None:
    waker = _wakers.get(key)
    if waker is None:
        return
    try:
        waker()
    except Exception:  # the row is committed: the relay's next poll takes it
        _log.warning("could not wake the outbox relay; its next poll takes the message", exc_info=True)


def enqueue(session: Session, kind: str, payload: Mapping[str, Any], *, due_at: datetime | None = None) -> None:
    """Write ``kind`` with ``payload`` (JSON values) into the outbox in the caller's transaction."""
    now = datetime.now(UTC)
    session.add(OutboxMessage(kind=kind, payload=dict(payload), created_at=now, due_at=due_at or now, attempts=0))
    session.flush()
    bind = session.get_bind()
    assert isinstance(bind, Engine | Connection)
    key = database_key(bind)
    # the one after-commit callback of the project (tests/outbox/test_one_seam.py)
    after_commit(session, lambda: wake(key), key="zdb.outbox.wake")
