"""What the start page shows besides the search: the federation's top list (the best ten), the
latest evaluated tournaments and the state of the recalculation."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from zdb.ratings.status_queries import recalc_status
from zdb.ratings.top_list_queries import top_list
from zdb.tournaments.queries import list_tournaments

__all__ = ["LATEST", "TOP", "overview"]

TOP = 10
LATEST = 8


def overview(session: Session, *, complaint_days: int) -> dict[str, Any]:
    top, top_total, _ = top_list(
        session,
        federation=None,
        age_min=None,
        age_max=None,
        sex=None,
        active=None,
        year=datetime.now(UTC).year,
        limit=TOP,
        offset=0,
        complaint_days=complaint_days,
    )
    latest, _, _ = list_tournaments(
        session,
        period_from=None,
        period_to=None,
        federation=None,
        text=None,
        status="evaluated",
        limit=LATEST,
        offset=0,
    )
    return {"top": top, "top_total": top_total, "latest": latest, "status": recalc_status(session)}
