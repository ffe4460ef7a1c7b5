"""Reading published editions: the list, one edition's rows (a club's members for club
software), and an edition's differences from the one before it."""

from __future__ import annotations

from sqlalchemy import and_, func, literal, or_, select, union_all
from sqlalchemy.orm import Session

from zdb.editions.models import EditionRating, ListEdition
from zdb.editions.schemas import EditionChange, EditionOut, EditionRow
from zdb.errors import NotFoundError
from zdb.messages import Message
from zdb.players.models import Membership, Player
from zdb.players.privacy import public_name_column

__all__ = ["edition", "edition_changes", "edition_rows", "editions", "previous_edition"]


def _out(found: ListEdition, players: int) -> EditionOut:
    return EditionOut(
        name=found.name,
        as_of=found.as_of,
        published_at=found.published_at,
        published_by=found.published_by,
        players=players,
    )


def _sizes(session: Session, ids: list[int]) -> dict[int, int]:
    e = EditionRating
    rows = session.execute(select(e.edition_id, func.count()).where(e.edition_id.in_(ids)).group_by(e.edition_id))
    return {r[0]: r[1] for r in rows}


def editions(session: Session, *, limit: int, offset: int) -> tuple[list[EditionOut], int]:
    total = session.execute(select(func.count()).select_from(ListEdition)).scalar_one()
    found = list(
        session.scalars(
            select(ListEdition).order_by(ListEdition.as_of.desc(), ListEdition.id.desc()).limit(limit).offset(offset)
        )
    )
    sizes = _sizes(session, [e.id for e in found])
    return [_out(e, sizes.get(e.id, 0)) for e in found], total


def _named(session: Session, name: str) -> ListEdition:
    found = session.execute(select(ListEdition).where(ListEdition.name == name)).scalar_one_or_none()
    if found is None:
        raise NotFoundError(Message("no edition is named {name!r}", name=name))
    return found


def edition(session: Session, name: str) -> EditionOut:
    found = _named(session, name)
    return _out(found, _sizes(session, [found.id]).get(found.id, 0))


def edition_rows(
    session: Session, name: str, *, club: str | None, limit: int, offset: int
) -> tuple[list[EditionRow], int]:
    """The edition's rows, best first; ``club``: the players who were its members on the edition's day."""
    found = _named(session, name)
    e, p, m = EditionRating, Player, Membership
    conditions = [e.edition_id == found.id]
    if club is not None:
        member = select(m.player_pkz).where(
            m.club_code == club, m.valid_from <= found.as_of, or_(m.valid_until.is_(None), m.valid_until >= found.as_of)
        )
        conditions.append(e.player_pkz.in_(member))
    total = session.execute(select(func.count()).select_from(e).where(*conditions)).scalar_one()
    rows = session.execute(
        select(
            e.player_pkz,
            public_name_column(p.given_name, given=True).label("given_name"),
            public_name_column(p.surname).label("surname"),
            e.rating,
            e.rating_index,
        )
        .join(p, p.pkz == e.player_pkz)
        .where(*conditions)
        .order_by(e.rating.desc(), p.surname, p.given_name, e.player_pkz)
        .limit(limit)
        .offset(offset)
    )
    items = [
        EditionRow(
            pkz=r.player_pkz, name=f"{r.given_name} {r.surname}".strip(), rating=r.rating, rating_index=r.rating_index
        )
        for r in rows
    ]
    return items, total


def previous_edition(session: Session, name: str) -> ListEdition | None:
    found = _named(session, name)
    return session.execute(
        select(ListEdition)
        .where(or_(ListEdition.as_of < found.as_of, and_(ListEdition.as_of == found.as_of, ListEdition.id < found.id)))
        .order_by(ListEdition.as_of.desc(), ListEdition.id.desc())
        .limit(1)
    ).scalar_one_or_none()


def edition_changes(session: Session, name: str, *, limit: int, offset: int) -> tuple[list[EditionChange], int]:
    """Every player whose rating or index differs from the previous edition, or who entered or
    left the list; by person number. The first edition differs from nothing: everyone entered."""
    found = _named(session, name)
    before = previous_edition(session, name)
    e = EditionRating
    new = select(e.player_pkz, e.rating, e.rating_index).where(e.edition_id == found.id).subquery()
    old = select(e.player_pkz, e.rating, e.rating_index).where(e.edition_id == (before.id if before else -1)).subquery()
    entered_or_changed = (
        select(
            new.c.player_pkz.label("pkz"),
            old.c.rating.label("old_rating"),
            old.c.rating_index.label("old_index"),
            new.c.rating.label("new_rating"),
            new.c.rating_index.label("new_index"),
        )
        .outerjoin(old, old.c.player_pkz == new.c.player_pkz)
        .where(or_(old.c.player_pkz.is_(None), old.c.rating != new.c.rating, old.c.rating_index != new.c.rating_index))
    )
    left = (
        select(old.c.player_pkz, old.c.rating, old.c.rating_index, literal(None), literal(None))
        .outerjoin(new, new.c.player_pkz == old.c.player_pkz)
        .where(new.c.player_pkz.is_(None))
    )
    changes = union_all(entered_or_changed, left).subquery()
    total = session.execute(select(func.count()).select_from(changes)).scalar_one()
    p = Player
    rows = session.execute(
        select(
            changes,
            public_name_column(p.given_name, given=True).label("given_name"),
            public_name_column(p.surname).label("surname"),
        )
        .join(p, p.pkz == changes.c.pkz)
        .order_by(changes.c.pkz)
        .limit(limit)
        .offset(offset)
    )
    items = [
        EditionChange(
            pkz=r.pkz,
            name=f"{r.given_name} {r.surname}".strip(),
            old_rating=r.old_rating,
            old_index=r.old_index,
            new_rating=r.new_rating,
            new_index=r.new_index,
        )
        for r in rows
    ]
    return items, total
