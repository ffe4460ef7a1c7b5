"""The relay of the outbox in production (``zdb.relay``): hands recalculation requests to
``zdb.recalculate``, uploaded imports to ``zdb.import_list`` on their queue, fans events out into
deliveries and sends the due ones (``zdb.notifications.relaying``).

It runs when a serving process wakes it after a commit (``wake_relay``: at most one message waits,
as with the recalculation's requests) and on beat's schedule every ``outbox_poll_seconds``: a
wake-up lost with a process that died between its commit and the hand-off only delays the work.
Twice at once is safe: each pass takes other rows (``zdb.outbox.relay``).
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy.orm import Session

from workers.celery_app import app
from workers.list_tasks import import_list
from workers.tasks import TRANSIENT_ERRORS, clear_mark, request, set_mark
from zdb.config import settings
from zdb.db import engine_for
from zdb.lists.queue import LIST_IMPORT
from zdb.notifications.relaying import delivery_policy, relay_pass
from zdb.outbox.models import OutboxMessage
from zdb.outbox.relay import Handler

__all__ = ["HANDOFFS", "relay", "wake_relay"]

_log = logging.getLogger(__name__)

_WAITING = "zdb:relay-waiting"


def _recalculate(_session: Session, _message: OutboxMessage) -> None:
    request(app)  # one waiting request takes every change committed before its run


def _import(_session: Session, message: OutboxMessage) -> None:
    import_list.delay(int(message.payload["import"]))


#: what the production relay hands on, beside the notifications' fan-out
HANDOFFS: dict[str, Handler] = {"recalculate": _recalculate, LIST_IMPORT: _import}


@app.task(name="zdb.relay", ignore_result=True, autoretry_for=TRANSIENT_ERRORS, retry_backoff=2, max_retries=3)
def relay() -> int:
    """Passes until nothing is left; how many."""
    clear_mark(app, _WAITING)
    config = settings()
    engine = engine_for(config.database_url)
    policy = delivery_policy(config)
    passes = 1
    while relay_pass(engine, HANDOFFS, policy):
        passes += 1
    return passes


def wake_relay(**options: Any) -> None:
    """The serving process's waker (``zdb.outbox.seam.set_waker``): queue a relay unless one waits."""
    if set_mark(app, _WAITING, seconds=max(int(settings().outbox_poll_seconds), 1)):
        try:
            app.send_task("zdb.relay", **options)
        except Exception:
            clear_mark(app, _WAITING)
            raise
