"""How far back a change of the record reaches into the time line, as answers and audit say it."""

from __future__ import annotations

from typing import Any

from zdb.rating import OrderKey

__all__ = ["recalculation_from"]


def recalculation_from(reach: OrderKey | None) -> dict[str, Any] | None:
    """The first tournament the recalculation redoes (None: no evaluation changes); a place at
    the start of a day (a merge that redoes a start state's step) names no tournament."""
    return None if reach is None else {"end_date": reach[0].isoformat(), "tournament_id": reach[3] or None}
