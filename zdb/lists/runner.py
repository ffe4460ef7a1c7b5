"""Running an uploaded import: the worker's (or the embedded thread's) side of
``POST /lists/imports`` (the federation's list) and ``POST /lists/fide-imports`` (FIDE's).
Idempotent: only a ``waiting`` import is taken. One that has ended (done, refused, failed) is
left alone, and so is one already ``running``: another attempt has it (or had it and died: the
sweep closes it, ``zdb.lists.lost_imports``), and an import is never resumed by itself.

While it runs on PostgreSQL a thread writes the import's heartbeat (``heartbeat_at``) every
``Settings.import_heartbeat_seconds`` through a connection of its own, so that the sweep can
tell a running import from one whose worker is gone. A failed import keeps its file, so that the
rating office may run it again.

Three transactions: claiming the import (``running``, seen at once by whoever asks), the
import itself (everything or nothing), and its end (``done`` with the difference, ``refused``
with the problems, or ``failed``). On PostgreSQL the progress is written through a connection of
its own while the import runs; SQLite has one writer at a time, which is then the import, so
there the progress shows when it ends.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, select, update
from sqlalchemy.exc import InterfaceError, OperationalError

from zdb.config import settings
from zdb.db import is_postgres, unit_of_work
from zdb.errors import DomainError, ValidationError
from zdb.formats.read_limits import ReadLimits
from zdb.lists.difference import Difference
from zdb.lists.fide_import import FideEdition, import_fide_list
from zdb.lists.fide_upload import fide_lines
from zdb.lists.models import ListImport
from zdb.lists.service import ListProblemsError, import_rating_list, phases
from zdb.lists.upload_refusals import upload_limits
from zdb.messages import Message

__all__ = ["heartbeat", "run_list_import"]

_log = logging.getLogger(__name__)


def _progress_writer(engine: Engine, import_id: int) -> object:
    def write(done: int, total: int) -> None:
        with engine.begin() as connection:
            connection.execute(
                update(ListImport).where(ListImport.id == import_id).values(progress_done=done, progress_total=total)
            )

    return write if is_postgres(engine) else None


@contextmanager
def heartbeat(engine: Engine, import_id: int, every: float) -> Iterator[None]:
    """Write the import's heartbeat every ``every`` seconds while the block runs (PostgreSQL; SQLite
    has one writer at a time, the import itself)."""
    if not is_postgres(engine) or every <= 0:
        yield
        return
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(every):
            try:
                with engine.begin() as connection:
                    connection.execute(
                        update(ListImport).where(ListImport.id == import_id).values(heartbeat_at=datetime.now(UTC))
                    )
            except (OperationalError, InterfaceError):  # the next beat tries again
                _log.warning("could not write the heartbeat of list import %s", import_id)

    thread = threading.Thread(target=beat, name=f"zdb-list-import-heartbeat-{import_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _release(engine: Engine, import_id: int) -> None:
    """Give a running import back to ``waiting`` after the database went away in the middle, so
    that the task's retry takes it again; if the database is still away the heartbeat stops and
    the sweep closes it."""
    try:
        with unit_of_work(engine) as session:
            session.execute(
                update(ListImport)
                .where(ListImport.id == import_id, ListImport.status == "running")
                .values(status="waiting", heartbeat_at=None)
            )
    except (OperationalError, InterfaceError):
        _log.warning("list import %s stays running: the database is out of reach", import_id)


def _end(engine: Engine, import_id: int, *, keep: bool = False, **values: object) -> None:
    if not keep:
        values["payload"] = None
    with unit_of_work(engine) as session:
        session.execute(
            update(ListImport).where(ListImport.id == import_id).values(finished_at=datetime.now(UTC), **values)
        )


def _import_list(
    engine: Engine, record: ListImport, payload: bytes, import_id: int, limits: ReadLimits | None
) -> Difference:
    with unit_of_work(engine) as session:
        return import_rating_list(
            session,
            payload,
            file=record.file_name,
            list_date=record.list_date,
            codec=record.encoding,  # type: ignore[arg-type]
            dry_run=record.dry_run,
            skip_problems=record.skip_problems,
            by=f"upload {record.file_name}",
            import_id=None if record.dry_run else import_id,
            actor_token_id=record.actor_token_id,
            progress=_progress_writer(engine, import_id),  # type: ignore[arg-type]
            limits=limits or upload_limits(settings(), "list"),
        )


def _import_fide(engine: Engine, record: ListImport, payload: bytes, limits: ReadLimits | None) -> FideEdition:
    """FIDE's list as the edition of the upload's date; its progress counts the players read (the
    total is not known before the end of the file)."""
    write = _progress_writer(engine, record.id)
    read = 0

    def progress(players: int) -> None:
        nonlocal read
        read += players
        if write is not None:
            write(read, 0)  # type: ignore[operator]

    bounds = limits or upload_limits(settings(), "fide")
    with unit_of_work(engine) as session, fide_lines(payload, record.file_name, bounds) as (lines, name):
        return import_fide_list(
            session,
            lines,
            file=name,
            edition=record.list_date,
            dry_run=record.dry_run,
            skip_problems=record.skip_problems,
            progress=progress,
            limits=bounds,
        )


def _refusal(place: str, text: str | Message) -> dict[str, Any]:
    return {"place": place, "text": text.as_json() if isinstance(text, Message) else text}


def run_list_import(
    engine: Engine, import_id: int, limits: ReadLimits | None = None, *, heartbeat_seconds: float = 15.0
) -> str:
    """Run the import ``import_id`` if it is waiting; its status afterwards. ``limits`` bound its
    reading (default: from the settings, the deadline starting now)."""
    with unit_of_work(engine) as session:
        record = session.execute(select(ListImport).where(ListImport.id == import_id).with_for_update()).scalar()
        if record is None:
            return "missing"
        if record.status != "waiting":  # ended, or another attempt has it: never resumed by itself
            return record.status
        record.status, record.heartbeat_at = "running", datetime.now(UTC)
    payload = record.payload or b""
    try:
        with heartbeat(engine, import_id, heartbeat_seconds):
            if record.kind == "fide":
                answer: Difference | FideEdition = _import_fide(engine, record, payload, limits)
            else:
                answer = _import_list(engine, record, payload, import_id, limits)
    except ListProblemsError as error:
        _end(engine, import_id, status="refused", result=error.difference.as_json())
        return "refused"
    except ValidationError as error:
        text = "; ".join(f"{p.place}: {p.message}" for p in error.problems)
        refusal = [_refusal(p.place, p.text) for p in error.problems]
        _end(engine, import_id, status="refused", error=text, refusal=refusal)
        return "refused"
    except DomainError as error:
        _end(engine, import_id, status="refused", error=str(error), refusal=[_refusal("", error.text)])
        return "refused"
    except (OperationalError, InterfaceError):
        _release(engine, import_id)  # the database was out of reach: the task's retry runs it again
        raise
    except Exception:
        # a bug, not the file's fault: the exception goes to the log (and the task's failure),
        # never to the import's row, which staff read; the file is kept, staff may run it again
        _log.exception("list import %s failed", import_id)
        failure = Message(
            "the import failed unexpectedly; the service's log has the details (import {id})", id=import_id
        )
        _end(engine, import_id, keep=True, status="failed", error=str(failure), refusal=[_refusal("", failure)])
        raise
    # a dry run keeps the file, so that exactly the file whose difference was shown can be applied
    day = answer.edition if isinstance(answer, FideEdition) else answer.list_date
    # the progress ends complete: FIDE's players read of the players read (the total is known
    # only now), a list's phases of its phases (zdb.lists.service.PHASES)
    done = answer.players if isinstance(answer, FideEdition) else phases(dry_run=answer.dry_run)
    _end(
        engine,
        import_id,
        status="done",
        result=answer.as_json(),
        list_date=day,
        keep=record.dry_run,
        progress_done=done,
        progress_total=done,
    )
    return "done"
