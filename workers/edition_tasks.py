"""The schedule's edition of the rating list: on the first day of every quarter, Celery beat
sends ``zdb.publish_edition``; the task publishes the ratings as of the day before, named after
the new quarter. Idempotent: an edition published already (by hand, or by an earlier run of
the task) is left alone. While a recalculation reaching back before the day is pending, the task
tries again later instead of freezing a state about to change.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from workers.celery_app import app
from workers.tasks import TRANSIENT_ERRORS
from zdb.config import settings
from zdb.db import engine_for, unit_of_work
from zdb.editions.service import publish_scheduled_edition
from zdb.errors import ConflictError

__all__ = ["publish_edition"]

#: a pending recalculation is waited for this long between attempts, for a day at most
_WAIT_SECONDS = 600


@app.task(name="zdb.publish_edition", bind=True, autoretry_for=TRANSIENT_ERRORS, max_retries=144)
def publish_edition(self: Any) -> str | None:
    """The name of the edition published, or None when it existed already."""
    try:
        with unit_of_work(engine_for(settings().database_url)) as session:
            made = publish_scheduled_edition(session, datetime.now(UTC).date())
            return None if made is None else made.name
    except ConflictError as pending:
        raise self.retry(exc=pending, countdown=_WAIT_SECONDS) from None
