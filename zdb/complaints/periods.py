"""The complaint period of a published list edition, and the provisional marks of evaluations.

A tournament's evaluation is published in the first edition whose date is on or after the
tournament's end (``zdb.editions``). Complaints about it are accepted until ``complaint_days``
(a setting, 30 by default: about a month) after that edition's publication; later ones only
from the office. An evaluation not yet in any published edition is inside its period: nothing
was published that the period could run from.

An evaluation is provisional while any of these holds, and definitive afterwards:

* ``in_review``: its tournament waits in review (its last recorded state, ``tournament_states``);
* ``complaint_period``: its complaint period has not ended (or it is not yet published);
* ``open_complaint``: a complaint about it is new or in progress.

``today`` is given by the caller (the door's clock), never read here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.complaints.models import OPEN, Complaint
from zdb.editions.models import ListEdition
from zdb.tournaments.models import TournamentRecord, TournamentState, TournamentVersion

__all__ = ["Period", "Provisional", "complaint_period", "provisional_marks"]

_CHUNK = 500  # ids per IN list


@dataclass(frozen=True, slots=True)
class Period:
    """The edition that published an evaluation (None: not yet published) and the last day of
    its complaint period (None: open while unpublished)."""

    edition_id: int | None
    edition: str | None
    until: date | None

    def open_on(self, today: date) -> bool:
        return self.until is None or today <= self.until


@dataclass(frozen=True, slots=True)
class Provisional:
    reasons: tuple[str, ...]
    edition: str | None
    until: date | None


def _published_day(edition: ListEdition) -> date:
    at = edition.published_at
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).astimezone(UTC).date()


def _period(editions: Sequence[ListEdition], end: date, days: int) -> Period:
    for edition in editions:  # by date
        if edition.as_of >= end:
            return Period(edition.id, edition.name, _published_day(edition) + timedelta(days=days))
    return Period(None, None, None)


def _editions(session: Session) -> list[ListEdition]:
    # a handful a year: read whole
    return list(session.execute(select(ListEdition).order_by(ListEdition.as_of, ListEdition.id)).scalars())


def _end_dates(session: Session, tournament_ids: Sequence[int]) -> dict[int, date]:
    """The end date of the evaluated version (before the first evaluation: the current one)."""
    r, v = TournamentRecord, TournamentVersion
    found: dict[int, date] = {}
    for k in range(0, len(tournament_ids), _CHUNK):
        rows = session.execute(
            select(r.id, v.end_date)
            .join(v, (v.tournament_id == r.id) & (v.version == func.coalesce(r.evaluated_version, r.current_version)))
            .where(r.id.in_(tournament_ids[k : k + _CHUNK]))
        ).all()
        found.update(dict(rows))
    return found


def complaint_period(session: Session, tournament_id: int, *, days: int) -> Period:
    end = _end_dates(session, [tournament_id]).get(tournament_id)
    return Period(None, None, None) if end is None else _period(_editions(session), end, days)


def _in_review(session: Session, tournament_ids: Sequence[int]) -> set[int]:
    """The tournaments whose last recorded state is ``in_review``."""
    s = TournamentState
    last: dict[int, str] = {}
    for k in range(0, len(tournament_ids), _CHUNK):
        rows = session.execute(
            select(s.tournament_id, s.state)
            .where(s.tournament_id.in_(tournament_ids[k : k + _CHUNK]))
            .order_by(s.at, s.id)
        ).all()
        last.update(dict(rows))
    return {tid for tid, state in last.items() if state == "in_review"}


def _complained(session: Session, tournament_ids: Sequence[int]) -> set[int]:
    c = Complaint
    found: set[int | None] = set()
    for k in range(0, len(tournament_ids), _CHUNK):
        found.update(
            session.execute(
                select(c.tournament_id)
                .where(c.tournament_id.in_(tournament_ids[k : k + _CHUNK]), c.state.in_(OPEN))
                .distinct()
            ).scalars()
        )
    return {tid for tid in found if tid is not None}


def provisional_marks(
    session: Session, tournament_ids: Iterable[int], *, today: date, days: int
) -> dict[int, Provisional | None]:
    """Per tournament: why its evaluation is provisional, None where it is definitive."""
    ids = sorted(set(tournament_ids))
    if not ids:
        return {}
    editions = _editions(session)
    ends = _end_dates(session, ids)
    reviewed, complained = _in_review(session, ids), _complained(session, ids)
    marks: dict[int, Provisional | None] = {}
    for tid in ids:
        period = _period(editions, ends[tid], days) if tid in ends else Period(None, None, None)
        reasons = [
            *(["in_review"] if tid in reviewed else []),
            *(["complaint_period"] if period.open_on(today) else []),
            *(["open_complaint"] if tid in complained else []),
        ]
        marks[tid] = Provisional(tuple(reasons), period.edition, period.until) if reasons else None
    return marks
