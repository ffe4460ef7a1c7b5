"""API tokens (the audit log they write is ``zdb.audit``).

A token's secret is shown once, when it is created; only its SHA-256 is stored, with a short
prefix of the secret kept for display (``zdb token list``). The audit log records every write
made through the API: who (the token), when, what and on which target.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, DateTime, String, func
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["ROLES", "ApiToken"]

#: admin: federation staff, everything; referee: a federation subtree (club-code prefix);
#: club: one club's members, non-public fields included
ROLES = ("admin", "referee", "club")


class ApiToken(Base):
    __tablename__ = "api_tokens"
    __table_args__ = (
        CheckConstraint("role IN ('admin', 'referee', 'club')", name="role"),
        CheckConstraint("role = 'admin' OR scope IS NOT NULL", name="scope"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    prefix: Mapped[str] = mapped_column(String(16), index=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    role: Mapped[str] = mapped_column(String(10))
    #: a club-code prefix for a referee, a club code for a club, none for an admin
    scope: Mapped[str | None] = mapped_column(String(5))
    label: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
