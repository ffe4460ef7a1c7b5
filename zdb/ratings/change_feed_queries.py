"""All SQL of the club software's change feed (``GET /ratings/changes``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import and_, exists, func, select
from sqlalchemy.orm import Session, aliased

from zdb.common.like import like_pattern
from zdb.players.models import Membership, Player
from zdb.players.privacy import public_name_column
from zdb.ratings.changed_since import cached_utc, changed_since
from zdb.ratings.player_queries import rating_index
from zdb.ratings.schemas import (
    RatingChange,
)
from zdb.timeline.models import PlayerRating
from zdb.timeline.run_records import RunChange

__all__ = ["rating_changes"]


def rating_changes(
    session: Session, *, since: datetime, federation: str | None, limit: int, offset: int
) -> tuple[list[RatingChange], int, datetime | None, datetime]:
    """Players whose current rating was written at or after ``since`` (oldest change first);
    returns the page, the total, the latest change among them and where the next poll starts.

    The next poll starts at the latest change visible now: runs are serialised and a run's rows
    become visible only when it commits, so a change that is still being written will carry a
    later time than every visible one. Polls are inclusive, so nothing falls between two.
    """
    p, r, m = Player, PlayerRating, Membership
    conditions = [changed_since(session, since)]
    if federation:
        member = exists().where(
            m.player_pkz == p.pkz,
            m.valid_until.is_(None),
            m.club_code.like(like_pattern(federation, prefix_only=True), escape="\\"),
        )
        conditions.append(member)
    total, changed = session.execute(
        select(func.count(), func.max(r.changed_at)).select_from(r).join(p, p.pkz == r.player_pkz).where(*conditions)
    ).one()
    # The values before: those the last recalculation run that changed the player recorded.
    c, last = aliased(RunChange), aliased(RunChange)
    before = (
        select(last.run_id).where(last.player_pkz == p.pkz).order_by(last.run_id.desc()).limit(1).correlate(p)
    ).scalar_subquery()
    old = and_(c.player_pkz == p.pkz, c.run_id == before)
    rows = session.execute(
        select(
            p.pkz,
            public_name_column(p.surname).label("surname"),
            public_name_column(p.given_name, given=True).label("given_name"),
            p.fide_id,
            r.rating,
            r.rating_index,
            r.changed_at,
            select(c.old_rating).where(old).correlate(p).scalar_subquery().label("old_rating"),
            select(c.old_index).where(old).correlate(p).scalar_subquery().label("old_index"),
        )
        .join(p, p.pkz == r.player_pkz)
        .where(*conditions)
        .order_by(r.changed_at, p.pkz)
        .limit(limit)
        .offset(offset)
    ).all()
    latest = session.execute(select(func.max(r.changed_at))).scalar()
    items = [
        RatingChange(
            pkz=row.pkz,
            surname=row.surname,
            given_name=row.given_name,
            fide_id=row.fide_id,
            rating=row.rating,
            rating_index=rating_index(row.rating, row.rating_index),
            changed_at=row.changed_at,
            old_rating=row.old_rating,
            old_index=row.old_index,
        )
        for row in rows
    ]
    return items, total, changed, since if latest is None else max(cached_utc(latest), cached_utc(since))
