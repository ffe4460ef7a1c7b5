"""The relay: takes the due messages of the outbox and hands each to its kind's handler.

At least once: a message is taken for a while (``LEASE``) in a transaction of its own, so that a
second relay leaves it alone; its handler then runs in the transaction that marks it done, so
that what a handler writes into the database happens exactly when the message is done. A handler
that hands work elsewhere (sends a Celery task, starts a thread) may do so twice when a relay
dies between the hand-off and the commit: the consumers are safe to run twice. A relay that
dies lets its messages go when their lease passes. A failed message is tried again after a pause
that doubles with each attempt (``backoff``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import Connection, delete, func, or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from zdb.db import unit_of_work
from zdb.outbox.models import OutboxMessage

__all__ = ["LEASE", "Handler", "RelayPass", "backoff", "oldest_pending", "relay_due"]

_log = logging.getLogger(__name__)

#: a handler: does the message's work in the session whose commit marks it done
Handler = Callable[[Session, OutboxMessage], None]

#: how long a relay holds a message it took; a handler's work is a hand-off or a short write
LEASE = timedelta(minutes=5)
#: done messages are kept this long (what was handed off, for the curious), then deleted
_KEEP_DONE = timedelta(days=1)
_ERROR_LENGTH = 2000


@dataclass(frozen=True, slots=True)
class RelayPass:
    done: int = 0
    failed: int = 0


def backoff(attempts: int) -> timedelta:
    """The pause after the ``attempts``-th failed attempt: 5 s, 10 s, 20 s, … at most an hour."""
    return timedelta(seconds=min(5 * 2 ** max(attempts - 1, 0), 3600))


def _take(engine: Engine, now: datetime, limit: int) -> list[int]:
    m = OutboxMessage
    with unit_of_work(engine) as session:
        due = session.scalars(
            select(m)
            .where(m.done_at.is_(None), m.due_at <= now, or_(m.taken_until.is_(None), m.taken_until < now))
            .order_by(m.id)
            .limit(limit)
            # two relays at once: each takes other rows (PostgreSQL; SQLite has one writer)
            .with_for_update(skip_locked=True)
        ).all()
        for message in due:
            message.taken_until = now + LEASE
            message.attempts += 1
        return [message.id for message in due]


def _handle(engine: Engine, message_id: int, handlers: Mapping[str, Handler], now: datetime) -> bool:
    with unit_of_work(engine) as session:
        message = session.get(OutboxMessage, message_id, with_for_update=True)
        if message is None or message.done_at is not None:
            return True  # done by a relay whose lease we outlived
        handler = handlers.get(message.kind)
        if handler is None:  # a kind a newer process writes: left for a relay that knows it
            raise LookupError(f"no handler for outbox messages of the kind {message.kind!r}")
        handler(session, message)
        message.done_at, message.taken_until, message.last_error = now, None, None
    return True


def _failed(engine: Engine, message_id: int, error: Exception, now: datetime) -> None:
    with unit_of_work(engine) as session:
        message = session.get(OutboxMessage, message_id)
        if message is None:
            return
        message.taken_until = None
        message.due_at = now + backoff(message.attempts)
        message.last_error = f"{type(error).__name__}: {error}"[:_ERROR_LENGTH]


def relay_due(
    engine: Engine, handlers: Mapping[str, Handler], *, now: datetime | None = None, limit: int = 200
) -> RelayPass:
    """Hand the due messages (at most ``limit``) to their handlers; how many were done and failed."""
    moment = now or datetime.now(UTC)
    done = failed = 0
    for message_id in _take(engine, moment, limit):
        try:
            _handle(engine, message_id, handlers, moment)
            done += 1
        except Exception as error:
            _log.warning("outbox message %s failed; tried again later", message_id, exc_info=True)
            _failed(engine, message_id, error, moment)
            failed += 1
    if done:  # a pass with nothing to do writes nothing (SQLite: the file's one writer is left alone)
        with unit_of_work(engine) as session:
            session.execute(delete(OutboxMessage).where(OutboxMessage.done_at < moment - _KEEP_DONE))
    return RelayPass(done, failed)


def oldest_pending(connection: Connection) -> tuple[int, datetime | None]:
    """How many messages wait, and since when the oldest (for the metrics)."""
    m = OutboxMessage
    count, oldest = connection.execute(select(func.count(), func.min(m.created_at)).where(m.done_at.is_(None))).one()
    if oldest is not None and oldest.tzinfo is None:  # SQLite keeps no zone: the value was UTC
        oldest = oldest.replace(tzinfo=UTC)
    return int(count), oldest
