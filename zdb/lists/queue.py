"""Queueing an uploaded import for whoever runs it: a message in the outbox (``zdb.outbox``),
written in the upload's own transaction, so that an upload is never committed without it.

The relay hands it on (``zdb.app`` and ``workers.outbox_tasks`` say to whom: the Celery queue
``imports`` in production, a thread of the serving process when embedded). Running it twice is
safe: only a waiting import runs (``zdb.lists.runner.run_list_import``).
"""

from __future__ import annotations

import logging
import threading

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from zdb.outbox.seam import enqueue

__all__ = ["LIST_IMPORT", "queue_list_import", "run_in_thread"]

_log = logging.getLogger(__name__)

#: the outbox kind of an import to run; its payload names the import: {"import": id}
LIST_IMPORT = "list.import"


def queue_list_import(session: Session, import_id: int) -> None:
    enqueue(session, LIST_IMPORT, {"import": import_id})


def run_in_thread(engine: Engine, import_id: int) -> None:
    """The embedded mode's runner: a daemon thread of this process runs the import."""
    from zdb.lists.runner import run_list_import  # noqa: PLC0415 - the thread's work

    def run() -> None:
        try:
            run_list_import(engine, import_id)
        except Exception:  # recorded on the import (failed); the thread must not die loudly
            _log.exception("list import %s failed", import_id)

    threading.Thread(target=run, name=f"zdb-list-import-{import_id}", daemon=True).start()
