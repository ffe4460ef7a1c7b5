"""The referee pages' sign-in: a server-side session row, so that the browser's cookie never
holds the API token.

Why: a cookie is stored on the referee's machine and sent with every request; if it held the
token, anyone reading it (a shared computer, a browser profile copied) would hold a write
credential for as long as the token lives. The cookie holds a random session id instead; only
its SHA-256 is stored, with the token it stands for and when it expires. Signing out deletes
the row; a revoked token ends its sessions at once; an expired row is refused and deleted when
the next session starts. Flushes, never commits.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy import DateTime, ForeignKey, String, delete, func, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from zdb.auth.models import ApiToken
from zdb.auth.principal import Principal
from zdb.auth.service import hash_secret
from zdb.orm import Base

__all__ = ["WebSession", "end_session", "session_principal", "start_session"]


class WebSession(Base):
    __tablename__ = "web_sessions"

    #: SHA-256 of the cookie's session id: a copy of the table opens no session
    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    token_id: Mapped[int] = mapped_column(ForeignKey("api_tokens.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


def start_session(session: Session, principal: Principal, lifetime: timedelta) -> str:
    """A new session for a signed-in token: the id for the cookie (shown once, never stored).
    The expired sessions of every token are deleted here, so that the table stays small."""
    assert principal.token_id is not None
    now = datetime.now(UTC)
    session.execute(delete(WebSession).where(WebSession.expires_at <= now))
    session_id = secrets.token_urlsafe(32)
    session.add(WebSession(id_hash=hash_secret(session_id), token_id=principal.token_id, expires_at=now + lifetime))
    session.flush()
    return session_id


def session_principal(session: Session, session_id: str) -> Principal | None:
    """The caller of a session that has not expired and whose token is not revoked; else None."""
    token = session.execute(
        select(ApiToken)
        .join(WebSession, WebSession.token_id == ApiToken.id)
        .where(WebSession.id_hash == hash_secret(session_id), WebSession.expires_at > datetime.now(UTC))
    ).scalar_one_or_none()
    if token is None or token.revoked_at is not None:
        return None
    return Principal(token.role, token.scope, token.id, token.prefix)


def end_session(session: Session, session_id: str) -> None:
    """Signing out: the session's row is gone, the id opens nothing any more."""
    session.execute(delete(WebSession).where(WebSession.id_hash == hash_secret(session_id)))
