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
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session, aliased

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


def _day(at: datetime) -> date:
    """The UTC day of a moment (SQLite gives it back without its zone; it was stored in UTC)."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).astimezone(UTC).date()


def _period(editions: Sequence[ListEdition], end: date, days: int) -> Period:
    for edition in editions:  # by date
        if edition.as_of >= end:
            return Period(edition.id, edition.name, _day(edition.published_at) + timedelta(days=days))
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


def provisional_marks(
    session: Session, tournament_ids: Iterable[int], *, today: date, days: int
) -> dict[int, Provisional | None]:
    """Per tournament: why its evaluation is provisional, None where it is definitive. One
    statement per 500 tournaments (the pages' reads are bounded, ``tests/web/test_page_queries.py``):
    each row carries its end date, its last recorded state, whether a complaint about it is open,
    and the first edition on or after its end."""
    ids = sorted(set(tournament_ids))
    r, v, s, c, e = TournamentRecord, TournamentVersion, TournamentState, Complaint, ListEdition
    last_state = (
        select(s.state).where(s.tournament_id == r.id).order_by(s.at.desc(), s.id.desc()).limit(1).scalar_subquery()
    )
    complained = exists().where(c.tournament_id == r.id, c.state.in_(OPEN))
    f = aliased(ListEdition)
    first = select(f.id).where(f.as_of >= v.end_date).order_by(f.as_of, f.id).limit(1).scalar_subquery()
    marks: dict[int, Provisional | None] = {}
    for k in range(0, len(ids), _CHUNK):
        rows = session.execute(
            select(r.id, last_state, complained, e.name, e.published_at)
            .join(v, (v.tournament_id == r.id) & (v.version == func.coalesce(r.evaluated_version, r.current_version)))
            .outerjoin(e, e.id == first)
            .where(r.id.in_(ids[k : k + _CHUNK]))
        ).all()
        for tid, state, open_complaint, edition, published_at in rows:
            until = None if published_at is None else _day(published_at) + timedelta(days=days)
            reasons = [
                *(["in_review"] if state == "in_review" else []),
                *(["complaint_period"] if until is None or today <= until else []),
                *(["open_complaint"] if open_complaint else []),
            ]
            marks[tid] = Provisional(tuple(reasons), edition, until) if reasons else None
    return marks
