"""The club pull (``GET /clubs/{code}/ratings``) as of a day or as published.

The live club pull is a hot read with statements of its own (``zdb.ratings.queries.club_statements``);
a pull ``at=`` a day or of a published ``edition=`` reads the ratings of a ``ListSource`` instead and
the memberships of its day, so that a club's line-up for a season can be pulled as it was listed.
The rows have the shape of the live statements' rows, so one function turns both into the answer.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.auth.principal import Principal
from zdb.editions.sources import ListSource
from zdb.errors import NotFoundError
from zdb.federations.models import Club
from zdb.players.models import Membership, Player
from zdb.ratings.queries import club_page_fields
from zdb.ratings.schemas import ClubMemberRating
from zdb.timeline.models import HistoryRow

__all__ = ["club_ratings_from_source"]


def club_ratings_from_source(
    session: Session, code: str, viewer: Principal, source: ListSource, *, limit: int, offset: int
) -> tuple[list[ClubMemberRating], int, datetime | None]:
    """The members of a club on the source's day with the source's ratings, by membership number;
    the last evaluation is the latest one up to that day. ``NotFoundError`` for an unknown club."""
    if session.get(Club, code) is None:
        raise NotFoundError(f"no club has the code {code!r}")
    m, p, r, h = Membership, Player, source.ratings, HistoryRow
    until = [] if source.on is None else [h.event_date <= source.on]
    last_evaluation = (
        select(func.max(h.event_date))
        .where(h.player_pkz == p.pkz, h.event_phase == 1, h.evaluated.is_(True), *until)
        .correlate(p)
        .scalar_subquery()
    )
    matching = [m.club_code == code, *source.member_on_day()]
    total = session.execute(select(func.count()).select_from(m).where(*matching)).scalar_one()
    rows = (
        session.execute(
            select(
                m.member_no,
                m.status,
                p.pkz,
                p.surname,
                p.given_name,
                p.objects_to_publication,
                p.sex,
                p.birth_year,
                p.birth_date,
                p.fide_id,
                p.nation,
                r.rating,
                r.rating_index,
                r.changed_at,
                last_evaluation.label("last_evaluation"),
                func.count(p.pkz).over().label("total"),
                func.max(r.changed_at).over().label("changed"),
            )
            .select_from(m)
            .join(p, p.pkz == m.player_pkz)
            .outerjoin(r, r.player_pkz == p.pkz)
            .where(*matching)
            .order_by(m.member_no.is_(None), m.member_no, p.pkz)
            .limit(limit)
            .offset(offset)
        )
        .mappings()
        .all()
    )
    # a page beyond the last member: the answer's total all the same, as the live pull gives it
    beyond = None if rows else {"club_exists": True, "total": total, "changed": None}
    items, _, changed = club_page_fields(code, rows, beyond, viewer)
    return [ClubMemberRating.model_validate(item) for item in items], total, changed
