"""Reading the audit log as the office does: who (the token's label beside its id), filtered
by person, tournament, actor and period, newest first, a page at a time."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.orm import Session

from zdb.auth.models import ApiToken, AuditEntry

__all__ = ["AuditFilter", "audit_page"]


class AuditFilter:
    """The filters given; each absent one matches everything."""

    def __init__(
        self,
        *,
        action: str | None = None,
        person: int | None = None,
        tournament: int | None = None,
        actor: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> None:
        self.action, self.person, self.tournament = action, person, tournament
        self.actor, self.since, self.until = actor, since, until

    def conditions(self) -> list[ColumnElement[bool]]:
        a, t = AuditEntry, ApiToken
        found: list[ColumnElement[bool]] = []
        if self.action is not None:
            found.append(a.action == self.action)
        if self.person is not None:
            found.append(a.target == f"player {self.person}")
        if self.tournament is not None:
            found.append(a.target == f"tournament {self.tournament}")
        if self.actor is not None:
            # a token's label, or its id: "Anna, Geschäftsstelle" or "3"
            by_id = [a.actor_token_id == int(self.actor)] if self.actor.isdigit() else []
            found.append(or_(t.label == self.actor, *by_id))
        if self.since is not None:
            found.append(a.at >= self.since)
        if self.until is not None:
            found.append(a.at < self.until)
        return found


def audit_page(
    session: Session, wanted: AuditFilter, *, limit: int, offset: int
) -> tuple[list[tuple[AuditEntry, str | None]], int, datetime | None]:
    """A page of entries with their actors' labels, the total matching, and the newest entry's time."""
    a, t = AuditEntry, ApiToken
    conditions = wanted.conditions()
    total, newest = session.execute(
        select(func.count(), func.max(a.at)).select_from(a).outerjoin(t, t.id == a.actor_token_id).where(*conditions)
    ).one()
    rows = session.execute(
        select(a, t.label)
        .outerjoin(t, t.id == a.actor_token_id)
        .where(*conditions)
        .order_by(a.at.desc(), a.id.desc())
        .limit(limit)
        .offset(offset)
    ).all()
    return [(row[0], row[1]) for row in rows], int(total), newest
