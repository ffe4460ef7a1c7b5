"""The outbox's table: one row per piece of work that follows a commit (``outbox_messages``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["OutboxMessage"]


class OutboxMessage(Base):
    __tablename__ = "outbox_messages"
    # the relay's question: what is not done and due (done rows are few after the clean-up)
    __table_args__ = (Index("ix_outbox_messages_due", "done_at", "due_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    #: what to do: an open list of names (``recalculate``, ``list.import``, ``rating.run``, …)
    kind: Mapped[str] = mapped_column(String(60))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: not taken before this moment (a failed attempt moves it on: the backoff)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(default=0)
    #: a relay has taken the message until then; a relay that died lets it go when this passes
    taken_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    done_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text)
