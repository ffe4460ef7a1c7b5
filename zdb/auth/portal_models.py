"""The rating portal's OAuth2 clients and the tokens issued to them (``zdb.auth.portal_tokens``).

A client id and its secret are made by staff; only the secret's SHA-256 is stored. Every token
issued is one row of ``portal_tokens``: the hashes of its access token and refresh token, the
grant it was issued for (the quota counts new tokens, not renewals), its scopes and expiry. Of a
client's refresh tokens only the newest is valid: issuing one clears ``refresh_valid`` on the
client's older rows.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Index, String, func, true
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["PortalClient", "PortalToken"]


class PortalClient(Base):
    __tablename__ = "portal_clients"

    id: Mapped[int] = mapped_column(primary_key=True)
    client_id: Mapped[str] = mapped_column(String(64), unique=True)
    secret_hash: Mapped[str] = mapped_column(String(64))
    #: the scopes granted, separated by a space (``dsb_tournament``, ``dwz_liste``)
    scopes: Mapped[str] = mapped_column(String(100))
    #: a club's client sees only this club-code prefix (None: the whole federation)
    vkz: Mapped[str | None] = mapped_column(String(5))
    label: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class PortalToken(Base):
    __tablename__ = "portal_tokens"
    __table_args__ = (
        CheckConstraint("grant_type IN ('client_credentials', 'refresh_token')", name="grant_type"),
        Index("ix_portal_tokens_client_issued", "client_pk", "issued_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    client_pk: Mapped[int] = mapped_column(ForeignKey("portal_clients.id", ondelete="CASCADE"))
    access_hash: Mapped[str] = mapped_column(String(64), unique=True)
    refresh_hash: Mapped[str] = mapped_column(String(64), unique=True)
    refresh_valid: Mapped[bool] = mapped_column(default=True, server_default=true())
    grant_type: Mapped[str] = mapped_column(String(20))
    scopes: Mapped[str] = mapped_column(String(100))
    issued_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
