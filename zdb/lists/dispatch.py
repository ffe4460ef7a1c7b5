"""Handing an uploaded import to whoever runs it, after the upload's commit.

The wiring (``zdb.app``) decides who that is and hands the doors a starter: the Celery worker in
production (the task ``zdb.import_list`` takes the import's id), a thread of the serving process
in the embedded mode, nobody where the application was built without background work (tests run
``zdb.lists.runner.run_list_import`` themselves). This module never imports the workers.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from sqlalchemy import Engine

__all__ = ["ImportStarter", "start_list_import", "thread_starter"]

_log = logging.getLogger(__name__)

#: starts the import of the given id somewhere else; returns at once
ImportStarter = Callable[[int], None]


def thread_starter(engine: Engine) -> ImportStarter:
    """The embedded mode's starter: a daemon thread of this process runs the import."""

    def start(import_id: int) -> None:
        from zdb.lists.runner import run_list_import  # noqa: PLC0415 - the thread's work

        def run() -> None:
            try:
                run_list_import(engine, import_id)
            except Exception:  # recorded on the import (failed); the thread must not die loudly
                _log.exception("list import %s failed", import_id)

        threading.Thread(target=run, name=f"zdb-list-import-{import_id}", daemon=True).start()

    return start


def start_list_import(starter: ImportStarter | None, import_id: int) -> None:
    if starter is None:
        return
    try:
        starter(import_id)
    except Exception:  # the import stays waiting; GET shows it, and a new upload can be made
        _log.exception("could not start list import %s", import_id)
