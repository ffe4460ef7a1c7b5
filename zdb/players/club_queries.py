"""All SQL of the club lists: the clubs of a subtree (named by its club-code prefix, the empty
prefix is the whole national federation) with their current and active member counts."""

from __future__ import annotations

from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.orm import Session

from zdb.common.like import like_pattern
from zdb.errors import NotFoundError
from zdb.federations.models import Club
from zdb.federations.schemas import ClubOut
from zdb.messages import Message
from zdb.players.models import Membership

__all__ = ["club", "list_clubs"]


def list_clubs(
    session: Session, *, federation: str | None, text: str | None, limit: int, offset: int
) -> tuple[list[ClubOut], int]:
    """Clubs of a subtree (by club-code prefix) whose name or code contains ``text``, by code."""
    c = Club
    conditions: list[ColumnElement[bool]] = []
    if federation:
        conditions.append(c.code.like(like_pattern(federation, prefix_only=True), escape="\\"))
    if text:
        conditions.append(
            or_(func.lower(c.name).like(like_pattern(text.lower()), escape="\\"), func.upper(c.code) == text.upper())
        )
    total = session.execute(select(func.count()).select_from(c).where(*conditions)).scalar_one()
    return _clubs(session, conditions, limit, offset), total


def _clubs(session: Session, conditions: list[ColumnElement[bool]], limit: int, offset: int) -> list[ClubOut]:
    c, m = Club, Membership
    current = and_(m.club_code == c.code, m.valid_until.is_(None))
    members = select(func.count()).where(current).correlate(c).scalar_subquery()
    active = select(func.count()).where(current, m.status == "active").correlate(c).scalar_subquery()
    rows = session.execute(
        select(c.code, c.name, c.federation_prefix, members.label("members"), active.label("active_members"))
        .where(*conditions)
        .order_by(c.code)
        .limit(limit)
        .offset(offset)
    ).all()
    return [
        ClubOut(
            code=r.code,
            name=r.name,
            federation_prefix=r.federation_prefix,
            members=r.members,
            active_members=r.active_members,
        )
        for r in rows
    ]


def club(session: Session, code: str) -> ClubOut:
    found = _clubs(session, [Club.code == code], 1, 0)
    if not found:
        raise NotFoundError(Message("no club has the code {code!r}", code=code))
    return found[0]
