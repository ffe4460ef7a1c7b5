"""All SQL of tokens and the audit log."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.auth.models import ApiToken, AuditEntry

__all__ = ["add_audit_entry", "last_write_at", "token_by_hash", "tokens", "tokens_by_prefix"]


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


#: audited requests that change no data: a preview is audited as a read of other people's
#: ratings (``zdb.endpoints.referee_writes.record_preview``) and stores nothing else
_READS_AUDITED = ("tournament.preview",)


def last_write_at(session: Session) -> datetime | None:
    """When the last write through the API that changed data was recorded (the answers' data
    change with it; a preview's record leaves every answer as it was)."""
    return session.execute(select(func.max(AuditEntry.at)).where(AuditEntry.action.not_in(_READS_AUDITED))).scalar()
