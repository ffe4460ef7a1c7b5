"""Reading the imports: what the operator counts of them (how many uploads wait, run, are done,
refused or failed: ``/metrics``) and the staff's list of them."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session, defer

from zdb.lists.models import ListImport

__all__ = ["import_counts", "import_page"]


def import_counts(session: Session) -> dict[tuple[str, str], int]:
    """(kind, status) → number of imports."""
    rows = session.execute(
        select(ListImport.kind, ListImport.status, func.count()).group_by(ListImport.kind, ListImport.status)
    )
    return {(kind, status): count for kind, status, count in rows}


def import_page(session: Session, *, limit: int, offset: int) -> tuple[list[ListImport], int]:
    """A page of the imports, the newest first (by id: the order they were made), and how many
    there are. The uploads' bytes are not loaded."""
    total = session.execute(select(func.count()).select_from(ListImport)).scalar_one()
    records = session.execute(
        select(ListImport)
        .options(defer(ListImport.payload), defer(ListImport.result))
        .order_by(ListImport.id.desc())
        .limit(limit)
        .offset(offset)
    ).scalars()
    return list(records), total
