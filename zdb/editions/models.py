"""A published edition of the rating list and its rows.

An edition is the state of every listed player as of its date, copied when it is published and
never written again: a tournament submitted later that changes the live history leaves it as it
was (as the ECF keeps the original beside the revised ratings). Its name is what club software
asks for (``edition=2026-Q4``).
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import BigInteger, Date, DateTime, ForeignKey, SmallInteger, String, func
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["EditionRating", "ListEdition"]


class ListEdition(Base):
    __tablename__ = "list_editions"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(20), unique=True)
    as_of: Mapped[date] = mapped_column(Date, index=True)
    published_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    published_by: Mapped[str] = mapped_column(String(200), default="")


class EditionRating(Base):
    __tablename__ = "list_edition_ratings"

    edition_id: Mapped[int] = mapped_column(ForeignKey("list_editions.id", ondelete="CASCADE"), primary_key=True)
    player_pkz: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.pkz"), primary_key=True, index=True)
    rating: Mapped[int]
    rating_index: Mapped[int] = mapped_column(SmallInteger)
