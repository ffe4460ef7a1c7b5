"""All SQL of tokens and the audit log."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.auth.models import ApiToken, AuditEntry

__all__ = ["add_audit_entry", "audit_entries", "last_write_at", "token_by_hash", "tokens", "tokens_by_prefix"]


def token_by_hash(session: Session, secret_hash: str) -> ApiToken | None:
    return session.execute(select(ApiToken).where(ApiToken.secret_hash == secret_hash)).scalar_one_or_none()


def tokens_by_prefix(session: Session, prefix: str) -> list[ApiToken]:
    return list(session.execute(select(ApiToken).where(ApiToken.prefix == prefix)).scalars())


def tokens(session: Session) -> list[ApiToken]:
    return list(session.execute(select(ApiToken).order_by(ApiToken.id)).scalars())


def add_audit_entry(
    session: Session, token_id: int | None, action: str, target: str, detail: dict[str, Any] | None
) -> AuditEntry:
    entry = AuditEntry(actor_token_id=token_id, action=action, target=target, detail=detail)
    session.add(entry)
    session.flush()
    return entry


def audit_entries(
    session: Session, *, action: str | None, limit: int, offset: int
) -> tuple[list[AuditEntry], int, datetime | None]:
    """A page of the audit log, newest first, with the total and the time of the newest entry."""
    conditions = [] if action is None else [AuditEntry.action == action]
    total, newest = session.execute(select(func.count(), func.max(AuditEntry.at)).where(*conditions)).one()
    rows = session.execute(
        select(AuditEntry)
        .where(*conditions)
        .order_by(AuditEntry.at.desc(), AuditEntry.id.desc())
        .limit(limit)
        .offset(offset)
    ).scalars()
    return list(rows), total, newest


#: audited requests that change no data: a preview is audited as a read of other people's
#: ratings (``zdb.endpoints.referee_writes.record_preview``) and stores nothing else
_READS_AUDITED = ("tournament.preview",)


def last_write_at(session: Session) -> datetime | None:
    """When the last write through the API that changed data was recorded (the answers' data
    change with it; a preview's record leaves every answer as it was)."""
    return session.execute(select(func.max(AuditEntry.at)).where(AuditEntry.action.not_in(_READS_AUDITED))).scalar()
