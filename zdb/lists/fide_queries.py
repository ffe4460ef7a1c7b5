"""Where the pages and files read FIDE's data and a list's last evaluation: a player's row of
the newest FIDE edition that lists him (an edition without him does not erase his data: FIDE
drops inactive players from some downloads), and the list's "Letzte Auswertung" as a date."""

from __future__ import annotations

from datetime import date

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import InstrumentedAttribute, aliased

from zdb.lists.models import FideRatingRow

__all__ = ["fide_row_condition", "listed_week_date"]


def fide_row_condition(fide_id: InstrumentedAttribute[int | None]) -> ColumnElement[bool]:
    """The join condition of ``fide_ratings`` with a player's ``fide_id``: his newest edition."""
    newer = aliased(FideRatingRow)
    newest = select(func.max(newer.edition)).where(newer.fide_id == fide_id).scalar_subquery()
    return (FideRatingRow.fide_id == fide_id) & (FideRatingRow.edition == newest)


def listed_week_date(week: str | None) -> date | None:
    """The Monday of a list's ``YYYYWW``, for the places that show a last evaluation as a date
    (its week is the same)."""
    if not week:
        return None
    return date.fromisocalendar(int(week[:4]), int(week[4:]), 1)
