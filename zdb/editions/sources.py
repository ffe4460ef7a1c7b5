"""Where a list takes its ratings from: live (the current ratings), as of a date (the stored
history, ``at=``), or a published edition (``edition=``). Each is handed to the list's query in
the shape of the current ratings' table, so one query serves all three; its members are the
memberships of the list's day (the current ones for the live list)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import ColumnElement, DateTime, Integer, SmallInteger, cast, literal, null, or_, select
from sqlalchemy.orm import Session, aliased

from zdb.editions.models import EditionRating, ListEdition
from zdb.editions.service import ratings_as_of
from zdb.errors import NotFoundError, ValidationError, ValidationProblem
from zdb.messages import Message
from zdb.players.models import Membership
from zdb.timeline.models import PlayerRating

__all__ = ["ListSource", "list_source"]


@dataclass(frozen=True)
class ListSource:
    #: the ratings, shaped like ``player_ratings`` (player_pkz, rating, rating_index, changed_at)
    ratings: type[PlayerRating]
    #: the list's day; None: today's (current memberships)
    on: date | None = None

    def member_on_day(self, m: type[Membership] = Membership) -> list[ColumnElement[bool]]:
        if self.on is None:
            return [m.valid_until.is_(None)]
        return [m.valid_from <= self.on, or_(m.valid_until.is_(None), m.valid_until >= self.on)]


def _shaped(rows: object, on: date) -> type[PlayerRating]:
    sub = rows.subquery()  # type: ignore[attr-defined]
    shaped = select(
        sub.c.pkz.label("player_pkz"),
        sub.c.rating.label("rating"),
        cast(sub.c.rating_index, SmallInteger).label("rating_index"),
        cast(null(), DateTime(timezone=True)).label("changed_at"),
        null().label("leftover"),
    ).subquery(f"ratings_{on.isoformat().replace('-', '')}")
    return aliased(PlayerRating, shaped, adapt_on_names=True)


def list_source(session: Session, *, at: date | None, edition: str | None) -> ListSource:
    if at is not None and edition is not None:
        raise ValidationError([ValidationProblem("query.edition", Message("give at= or edition=, not both"))])
    if at is not None:
        return ListSource(_shaped(ratings_as_of(at), at), at)
    if edition is None:
        return ListSource(PlayerRating)
    found = session.execute(select(ListEdition).where(ListEdition.name == edition)).scalar_one_or_none()
    if found is None:
        raise NotFoundError(Message("no edition is named {name!r}", name=edition))
    e = EditionRating
    rows = select(e.player_pkz.label("pkz"), e.rating, e.rating_index).where(e.edition_id == literal(found.id, Integer))
    return ListSource(_shaped(rows, found.as_of), found.as_of)
