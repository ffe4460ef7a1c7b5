"""The Celery app: Redis broker, late acknowledgement, one task at a time per worker process,
and a beat schedule for the sweeper.

A recalculation task is acknowledged only when it has finished (``acks_late``); if the worker
dies meanwhile, Redis hands the message out again after the visibility timeout, which is set
above the longest run we allow (``task_time_limit``).
"""

from __future__ import annotations

from celery import Celery

from zdb.config import Settings, settings

__all__ = ["app", "create_app"]


def create_app(config: Settings) -> Celery:
    celery = Celery(
        "zdb", broker=config.broker_url or "redis://127.0.0.1:6379/0", include=["workers.tasks", "workers.list_tasks"]
    )
    celery.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_ignore_result=True,
        worker_prefetch_multiplier=1,
        task_time_limit=config.recalc_time_limit,
        broker_transport_options={"visibility_timeout": config.recalc_time_limit + 600},
        broker_connection_retry_on_startup=True,
        task_default_queue="zdb",
        # A sweep that waited longer than the next one is dropped: with no worker up, the queue
        # holds a handful of sweeps, not one per interval for as long as the outage lasts.
        beat_schedule={
            "zdb-sweep": {
                "task": "zdb.sweep",
                "schedule": config.sweep_seconds,
                "options": {"expires": config.sweep_seconds},
            }
        },
        # beat's own bookkeeping; nothing of value: losing it only restarts the schedule
        beat_schedule_filename=str(config.home / "celerybeat-schedule"),
        worker_hijack_root_logger=False,
    )
    return celery


app = create_app(settings())
