"""The provisional marks of the rows of a list (the club list, the top lists): whether the
rating a row shows rests on an evaluation still provisional, and why.

Why a module of its own: the lists' rows come from fast statements that carry no tournament
(``club_list_queries``, ``top_list_queries``, ``top_lists``; the club list's live pull is a hot
read, ``zdb.api.hot_reads``), and a mark per row asked one by one would be a query per row.
Instead, for the page's players together: one statement (per 500 players) gives each player's
last evaluation — his latest tournament in the time line's order (date, phase, text, id) that
changed his rating, up to the list's day — and one more gives those tournaments' marks
(``zdb.complaints.periods.provisional_marks``: in review, inside the complaint period of the
edition that published it, an open complaint). A row's rating rests on its last evaluation: that
one's mark is the row's.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.complaints.answers import provisional_out
from zdb.complaints.periods import provisional_marks
from zdb.timeline.models import HistoryRow
from zdb.tournaments.schemas import ProvisionalOut

__all__ = ["last_evaluations", "provisional_rows"]

_CHUNK = 500  # person numbers per IN list


def last_evaluations(session: Session, pkzs: Iterable[int], *, until: date | None = None) -> dict[int, int]:
    """Per person: the tournament of his last evaluation (up to ``until``, when given); persons
    never evaluated are left out."""
    wanted = sorted(set(pkzs))
    h = HistoryRow
    found: dict[int, int] = {}
    latest = func.row_number().over(
        partition_by=h.player_pkz,
        order_by=(h.event_date.desc(), h.event_phase.desc(), h.event_text.desc(), h.event_id.desc()),
    )
    for k in range(0, len(wanted), _CHUNK):
        conditions = [
            h.player_pkz.in_(wanted[k : k + _CHUNK]),
            h.event_phase == 1,
            h.evaluated.is_(True),
            h.tournament_id.is_not(None),
            *([] if until is None else [h.event_date <= until]),
        ]
        ranked = select(h.player_pkz, h.tournament_id, latest.label("latest")).where(*conditions).subquery()
        rows = session.execute(select(ranked.c.player_pkz, ranked.c.tournament_id).where(ranked.c.latest == 1))
        found.update((row.player_pkz, row.tournament_id) for row in rows)
    return found


def provisional_rows(
    session: Session,
    pkzs: Iterable[int],
    *,
    days: int,
    today: date | None = None,
    until: date | None = None,
) -> dict[int, ProvisionalOut | None]:
    """Per person of ``pkzs``: why the rating his row shows is provisional (his last evaluation
    up to ``until``'s mark), None where it is definitive or he was never evaluated. ``days``: the
    complaint period's setting; ``today``: the door's day (UTC), today when not given."""
    last = last_evaluations(session, pkzs, until=until)
    if not last:
        return {}
    marks = provisional_marks(session, last.values(), today=today or datetime.now(UTC).date(), days=days)
    return {pkz: provisional_out(marks.get(tid)) for pkz, tid in last.items()}
