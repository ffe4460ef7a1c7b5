"""All SQL of the top list of the API (``GET /ratings/top``) and the overview page."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, exists, func, select
from sqlalchemy.orm import Session

from zdb.common.like import like_pattern
from zdb.editions.sources import ListSource
from zdb.players.models import Membership, Player
from zdb.players.privacy import public_name_column
from zdb.ratings.player_queries import current_clubs
from zdb.ratings.provisional_rows import provisional_rows
from zdb.ratings.schemas import (
    TopListEntry,
)
from zdb.timeline.models import PlayerRating

__all__ = ["top_list"]


def top_list(
    session: Session,
    *,
    federation: str | None,
    age_min: int | None,
    age_max: int | None,
    sex: str | None,
    active: bool | None,
    year: int,
    limit: int,
    offset: int,
    source: ListSource | None = None,
    complaint_days: int | None = None,
) -> tuple[list[TopListEntry], int, datetime | None]:
    """Rated players (guests never), best first; equal ratings share a rank. Age is ``year``
    minus birth year: an age filter leaves out players whose birth year is unknown. Federation
    and ``active`` look at current memberships (in a club of the subtree, when given); with a
    ``source``, its ratings and the memberships of its day (``at=``, ``edition=``). With
    ``complaint_days`` (the complaint period's setting) each row says whether the rating shown
    rests on a provisional evaluation (``zdb.ratings.provisional_rows``: two statements for
    the page)."""
    source = source or ListSource(PlayerRating)
    p, r, m = Player, source.ratings, Membership
    conditions: list[ColumnElement[bool]] = [r.rating.is_not(None), p.guest.is_(False)]
    if sex is not None:
        conditions.append(p.sex == sex)
    if age_min is not None:
        conditions.append(p.birth_year <= year - age_min)
    if age_max is not None:
        conditions.append(p.birth_year >= year - age_max)
    membership: list[ColumnElement[bool]] = [m.player_pkz == p.pkz, *source.member_on_day()]
    if federation:
        membership.append(m.club_code.like(like_pattern(federation, prefix_only=True), escape="\\"))
    if active is True:
        conditions.append(exists().where(*membership, m.status == "active"))
    elif active is False:
        conditions.append(exists().where(*membership))
        conditions.append(~exists().where(*membership, m.status == "active"))
    elif federation:
        conditions.append(exists().where(*membership))
    total, changed = session.execute(
        select(func.count(), func.max(r.changed_at)).select_from(p).join(r, r.player_pkz == p.pkz).where(*conditions)
    ).one()
    ranked = (
        select(
            p.pkz,
            public_name_column(p.surname).label("surname"),
            public_name_column(p.given_name, given=True).label("given_name"),
            p.sex,
            p.birth_year,
            p.fide_id,
            p.nation,
            r.rating,
            r.rating_index,
            func.rank().over(order_by=r.rating.desc()).label("rank"),
        )
        .join(r, r.player_pkz == p.pkz)
        .where(*conditions)
        .subquery()
    )
    rows = session.execute(
        select(ranked).order_by(ranked.c.rank, ranked.c.surname, ranked.c.pkz).limit(limit).offset(offset)
    ).all()
    clubs = current_clubs(session, [row.pkz for row in rows])
    marks = (
        {}
        if complaint_days is None
        else provisional_rows(session, [row.pkz for row in rows], days=complaint_days, until=source.on)
    )
    items = [
        TopListEntry(
            rank=row.rank,
            pkz=row.pkz,
            surname=row.surname,
            given_name=row.given_name,
            sex=row.sex,
            birth_year=row.birth_year,
            fide_id=row.fide_id,
            nation=row.nation,
            rating=row.rating,
            rating_index=row.rating_index,
            clubs=clubs[row.pkz],
            provisional=marks.get(row.pkz),
        )
        for row in rows
    ]
    return items, total, changed
