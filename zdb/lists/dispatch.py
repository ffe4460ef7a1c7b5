"""Handing an uploaded import to whoever runs it, after the upload's commit: the Celery worker
in production (the task ``zdb.import_list`` takes the import's id), a thread of the serving
process in the embedded mode, nobody where the application was built without background work
(tests run ``zdb.lists.runner.run_list_import`` themselves)."""

from __future__ import annotations

import logging
import threading

from sqlalchemy import Engine

__all__ = ["enqueue_list_import"]

_log = logging.getLogger(__name__)


def enqueue_list_import(engine: Engine, import_id: int, *, embedded: bool, background: bool) -> None:
    if not background:
        return
    if embedded:
        from zdb.lists.runner import run_list_import  # noqa: PLC0415 - the thread's work

        def run() -> None:
            try:
                run_list_import(engine, import_id)
            except Exception:  # recorded on the import (failed); the thread must not die loudly
                _log.exception("list import %s failed", import_id)

        threading.Thread(target=run, name=f"zdb-list-import-{import_id}", daemon=True).start()
        return
    from workers.list_tasks import import_list  # noqa: PLC0415 - Celery only where a broker is configured

    try:
        import_list.delay(import_id)
    except Exception:  # the import stays waiting; GET shows it, and a new upload can be made
        _log.exception("could not send list import %s to the worker", import_id)
