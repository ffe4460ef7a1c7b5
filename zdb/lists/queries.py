"""What the operator counts of the imports: how many uploads wait, run, are done, refused or
failed (``/metrics``)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.lists.models import ListImport

__all__ = ["import_counts"]


def import_counts(session: Session) -> dict[tuple[str, str], int]:
    """(kind, status) → number of imports."""
    rows = session.execute(
        select(ListImport.kind, ListImport.status, func.count()).group_by(ListImport.kind, ListImport.status)
    )
    return {(kind, status): count for kind, status, count in rows}
