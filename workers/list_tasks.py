"""The thin task around an uploaded rating-list import (``zdb.lists.runner``): it takes the
import's id and is idempotent (an ended import is not run again)."""

from __future__ import annotations

from workers.celery_app import app
from workers.tasks import TRANSIENT_ERRORS
from zdb.config import settings
from zdb.db import engine_for
from zdb.lists.runner import run_list_import

__all__ = ["import_list"]


@app.task(name="zdb.import_list", autoretry_for=TRANSIENT_ERRORS, retry_backoff=2, max_retries=3)
def import_list(import_id: int) -> str:
    return run_list_import(engine_for(settings().database_url), import_id)
