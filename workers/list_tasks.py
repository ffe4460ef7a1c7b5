"""The thin task around an uploaded rating-list import (``zdb.lists.runner``): it takes the
import's id and is idempotent (only a waiting import is run).

It runs on a queue of its own (``IMPORT_QUEUE``, ``workers.celery_app``'s routes), taken by a
worker of its own, so that a recalculation never waits behind an import. It is acknowledged as
it starts, not when it ends (unlike the recalculation): the broker never hands a lost worker's
import to the next worker, where a poisonous upload would block that one too. The import's row
says what became of it: the sweep marks an import whose heartbeat stopped as failed, and the
rating office may run it again (``zdb.lists.lost_imports``)."""

from __future__ import annotations

from workers.celery_app import app
from workers.tasks import TRANSIENT_ERRORS
from zdb.config import settings
from zdb.db import engine_for
from zdb.lists.runner import run_list_import

__all__ = ["import_list"]


@app.task(
    name="zdb.import_list",
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=2,
    max_retries=3,
    acks_late=False,
    reject_on_worker_lost=False,
)
def import_list(import_id: int) -> str:
    config = settings()
    return run_list_import(
        engine_for(config.database_url), import_id, heartbeat_seconds=config.import_heartbeat_seconds
    )
