"""The one reader of the audit log: the office's page (who, with the token's label beside its
id, filtered by person, tournament, actor and period, newest first), a person's entries for his
export, and the time of the last write that changed data (the answers' Last-Modified)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, func, or_, select
from sqlalchemy.orm import Session

from zdb.audit.models import TOKEN_LABELS, AuditEntry

__all__ = ["AuditFilter", "audit_page", "entries_about", "last_write_at"]


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
        a, t = AuditEntry, TOKEN_LABELS
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
            found.append(or_(t.c.label == self.actor, *by_id))
        if self.since is not None:
            found.append(a.at >= self.since)
        if self.until is not None:
            found.append(a.at < self.until)
        return found


def audit_page(
    session: Session, wanted: AuditFilter, *, limit: int, offset: int
) -> tuple[list[tuple[AuditEntry, str | None]], int, datetime | None]:
    """A page of entries with their actors' labels, the total matching, and the newest entry's time."""
    a, t = AuditEntry, TOKEN_LABELS
    conditions = wanted.conditions()
    total, newest = session.execute(
        select(func.count(), func.max(a.at)).select_from(a).outerjoin(t, t.c.id == a.actor_token_id).where(*conditions)
    ).one()
    rows = session.execute(
        select(a, t.c.label)
        .outerjoin(t, t.c.id == a.actor_token_id)
        .where(*conditions)
        .order_by(a.at.desc(), a.id.desc())
        .limit(limit)
        .offset(offset)
    ).all()
    return [(row[0], row[1]) for row in rows], int(total), newest


def entries_about(target: str) -> Select[Any]:
    """The statement of the entries on one target (``player 10000001``), oldest first: when,
    what, the detail."""
    a = AuditEntry
    return select(a.at, a.action, a.detail).where(a.target == target).order_by(a.at, a.id)


#: audited requests that change no data: a preview is audited as a read of other people's
#: ratings (``zdb.endpoints.referee_writes.record_preview``) and stores nothing else
_READS_AUDITED = ("tournament.preview",)


def last_write_at(session: Session) -> datetime | None:
    """When the last write through the API that changed data was recorded (the answers' data
    change with it; a preview's record leaves every answer as it was)."""
    return session.execute(select(func.max(AuditEntry.at)).where(AuditEntry.action.not_in(_READS_AUDITED))).scalar()
