"""All SQL of tokens (the audit log's is ``zdb.audit``)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.auth.models import ApiToken

__all__ = ["token_by_hash", "tokens", "tokens_by_prefix"]


def token_by_hash(session: Session, secret_hash: str) -> ApiToken | None:
    return session.execute(select(ApiToken).where(ApiToken.secret_hash == secret_hash)).scalar_one_or_none()


def tokens_by_prefix(session: Session, prefix: str) -> list[ApiToken]:
    return list(session.execute(select(ApiToken).where(ApiToken.prefix == prefix)).scalars())


def tokens(session: Session) -> list[ApiToken]:
    return list(session.execute(select(ApiToken).order_by(ApiToken.id)).scalars())
