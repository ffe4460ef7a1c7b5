"""All SQL of the federation tree. A subtree is named by its club-code prefix: the empty prefix
is the whole national federation. The clubs with their member counts are
``zdb.players.club_queries`` (memberships are the players' room)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.common.like import like_pattern
from zdb.federations.models import Federation
from zdb.federations.schemas import FederationOut

__all__ = ["list_federations"]


def list_federations(
    session: Session, *, under: str | None, limit: int, offset: int
) -> tuple[list[FederationOut], int]:
    """The federations of a subtree (the federation itself included), by prefix."""
    f = Federation
    conditions = [] if not under else [f.prefix.like(like_pattern(under, prefix_only=True), escape="\\")]
    total = session.execute(select(func.count()).select_from(f).where(*conditions)).scalar_one()
    rows = session.execute(
        select(f.prefix, f.name, f.level, f.parent_prefix)
        .where(*conditions)
        .order_by(f.prefix)
        .limit(limit)
        .offset(offset)
    ).all()
    items = [FederationOut(prefix=r.prefix, name=r.name, level=r.level, parent_prefix=r.parent_prefix) for r in rows]
    return items, total
