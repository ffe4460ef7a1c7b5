"""The audit log's table: who (the token), when, what and on which target, with its detail."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String, column, func, table
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["TOKEN_LABELS", "AuditEntry"]


class AuditEntry(Base):
    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_at", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    actor_token_id: Mapped[int | None] = mapped_column(ForeignKey("api_tokens.id"), index=True)
    action: Mapped[str] = mapped_column(String(60))
    target: Mapped[str] = mapped_column(String(200), default="")
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON)


#: The actors' tokens, as far as the log reads them (id and label), named by their table as the
#: foreign key above names it: the tokens' model is auth's (``zdb.auth.models.ApiToken``), a
#: room above this one, since auth writes entries too.
TOKEN_LABELS = table("api_tokens", column("id", Integer), column("label", String))
