"""The table behind the ``Idempotency-Key`` header: one row per key and token.

Why: a referee's upload over a bad connection is retried; the retry must not store the
tournament twice. The first answer is kept with a hash of its request, so that the same request
is answered again word for word and a different one under the same key is refused.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, String, func
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["IdempotencyKey"]


class IdempotencyKey(Base):
    __tablename__ = "idempotency_keys"

    token_id: Mapped[int] = mapped_column(ForeignKey("api_tokens.id", ondelete="CASCADE"), primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    #: SHA-256 of the method, path, query and body
    request_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[int]
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    location: Mapped[str | None] = mapped_column(String(200))
    tournament_id: Mapped[int | None]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now(), index=True)
