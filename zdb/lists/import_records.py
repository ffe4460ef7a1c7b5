"""The import rows of imports run by a command, so that ``GET /lists/imports`` lists every import
(an upload's row is made by its door, a rating list's by ``zdb.lists.service``)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.orm import Session

from zdb.lists.fide_import import FideEdition
from zdb.lists.models import ListImport

__all__ = ["record_fide_import"]


def record_fide_import(session: Session, edition: FideEdition, *, skip_problems: bool) -> ListImport:
    """The row of a FIDE list stored by ``zdb fide import``: done, its progress the players read
    of the players read. Flushes, never commits."""
    record = ListImport(kind="fide", file_name=edition.file[:200], list_date=edition.edition, status="done")
    record.dry_run, record.skip_problems = edition.dry_run, skip_problems
    record.progress_done = record.progress_total = edition.players
    record.result, record.finished_at = edition.as_json(), datetime.now(UTC)
    session.add(record)
    session.flush()
    return record
