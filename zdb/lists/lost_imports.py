"""Imports whose worker was lost, and running an import again.

Why: an import is taken off the queue as its worker starts it (``workers.list_tasks``: never
handed out again by the broker, so one poisonous upload cannot block worker after worker), and
while it runs its worker writes a heartbeat (``zdb.lists.runner``). A worker that dies (killed,
out of memory, its machine lost) leaves its import ``running`` with a heartbeat that stops; the
sweep (``workers.tasks.sweep``) finds such imports and marks them failed, saying that the worker
was lost. The file is kept: the rating office may run the import again (``rerun_import``), and
only then — an import is never started again by itself. Flushes, never commits.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.errors import ConflictError, NotFoundError
from zdb.lists.models import ListImport
from zdb.messages import Message

__all__ = ["WORKER_LOST", "close_lost_imports", "rerun_import"]

_LOST = Message("the worker running this import was lost (stopped, killed or out of memory); run it again")
#: the failed import's reason, as ``error`` keeps it in English (the pages translate ``refusal``)
WORKER_LOST = _LOST.template


def close_lost_imports(session: Session, silent_for: timedelta) -> list[int]:
    """Mark failed every running import whose heartbeat (or, before its first, its upload) is
    older than ``silent_for``; their ids."""
    limit = datetime.now(UTC) - silent_for
    beat = func.coalesce(ListImport.heartbeat_at, ListImport.created_at)
    lost = session.scalars(
        select(ListImport).where(ListImport.status == "running", beat < limit).with_for_update(skip_locked=True)
    ).all()
    for record in lost:
        record.status = "failed"
        record.error = WORKER_LOST
        record.refusal = [{"place": "", "text": _LOST.as_json()}]
        record.finished_at = datetime.now(UTC)
    session.flush()
    return [record.id for record in lost]


def rerun_import(session: Session, import_id: int) -> ListImport:
    """Put a failed import back in the queue's state (``waiting``) with its file; the caller
    starts it after the commit. Only a failed import whose file was kept can run again: a
    refused one is wrong as it is, a done one is done."""
    record = session.get(ListImport, import_id, with_for_update=True)
    if record is None:
        raise NotFoundError(Message("import {id} does not exist", id=import_id))
    if record.status != "failed":
        raise ConflictError(
            Message("import {id} is {status}: only a failed import runs again", id=import_id, status=record.status)
        )
    if record.payload is None:
        raise ConflictError(Message("the file of import {id} is no longer kept: upload it again", id=import_id))
    record.status, record.progress_done, record.progress_total = "waiting", 0, 0
    record.error = record.refusal = record.result = None
    record.finished_at = record.heartbeat_at = None
    session.flush()
    return record
