"""The Celery app: Redis broker, late acknowledgement, one task at a time per worker process,
and a beat schedule for the sweeper and the quarterly edition of the rating list.

A task is acknowledged only when it has finished (``acks_late``). If the worker's pool process
dies meanwhile, the message is given back at once (``task_reject_on_worker_lost``); if the whole
worker dies (killed, its machine lost), Redis hands the unacknowledged message out again after
the visibility timeout (``Settings.broker_visibility_timeout``, 10 minutes by default; a worker
looks for such messages every 10 seconds). The timeout is below the longest run
(``task_time_limit``) on purpose: a second delivery of a run still going finds the
recalculation lock taken and ends at once, which costs nothing. A recalculation does not wait
for it anyway: while the time line is dirty the beat's sweep requests one every
``sweep_seconds``; the timeout bounds how long any other message of a dead worker waits.

The outbox's relay (``workers.outbox_tasks``) runs on beat's schedule and when a commit wakes it.

List imports go to a queue of their own (``IMPORT_QUEUE``) and are acknowledged as they start
(``workers.list_tasks``): an import whose worker died is closed by the sweep, never delivered again.
"""

from __future__ import annotations

from celery import Celery
from celery.schedules import crontab

import zdb.models  # noqa: F401 - every table known: a flush orders tables by foreign keys whose targets must be known
from zdb.config import IMPORT_QUEUE, WORKER_QUEUE, Settings, settings

__all__ = ["app", "create_app"]


def create_app(config: Settings) -> Celery:
    celery = Celery(
        "zdb",
        broker=config.broker_url or "redis://127.0.0.1:6379/0",
        include=["workers.tasks", "workers.edition_tasks", "workers.list_tasks", "workers.outbox_tasks"],
    )
    celery.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_ignore_result=True,
        worker_prefetch_multiplier=1,
        task_time_limit=config.recalc_time_limit,
        broker_transport_options={"visibility_timeout": config.broker_visibility_timeout},
        broker_connection_retry_on_startup=True,
        task_default_queue=WORKER_QUEUE,
        # list imports on a queue of their own: a recalculation never waits behind one
        task_routes={"zdb.import_list": {"queue": IMPORT_QUEUE}},
        # A sweep that waited longer than the next one is dropped: with no worker up, the queue
        # holds a handful of sweeps, not one per interval for as long as the outage lasts.
        beat_schedule={
            "zdb-sweep": {
                "task": "zdb.sweep",
                "schedule": config.sweep_seconds,
                "options": {"expires": config.sweep_seconds},
            },
            # The outbox's relay: what a commit's wake-up did not reach, and the due notifications.
            "zdb-relay": {
                "task": "zdb.relay",
                "schedule": config.outbox_poll_seconds,
                "options": {"expires": config.outbox_poll_seconds},
            },
            # Expired idempotency keys of every token (a token's own go with its next keyed write).
            "zdb-forget-idempotency-keys": {
                "task": "zdb.forget-idempotency-keys",
                "schedule": 3600.0,
                "options": {"expires": 3600.0},
            },
            # The rating list's edition of each quarter, on its first day (workers.edition_tasks).
            "zdb-quarterly-edition": {
                "task": "zdb.publish_edition",
                "schedule": crontab(minute=0, hour=3, day_of_month=1, month_of_year="1,4,7,10"),
            },
        },
        # beat's own bookkeeping; nothing of value: losing it only restarts the schedule
        beat_schedule_filename=str(config.home / "celerybeat-schedule"),
        worker_hijack_root_logger=False,
    )
    return celery


app = create_app(settings())
