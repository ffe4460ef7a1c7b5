"""A FIDE registration: what FIDE asks of a tournament to be FIDE-rated, kept with the
announcement it registers (one registration per announcement).

The deadline's outcome is stored as it was when the registration was made (``days_before``, and
the warnings answered then): a federation's rule changed later does not rewrite history.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, CheckConstraint, DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["CATEGORIES", "SYSTEMS", "FideRegistration"]

CATEGORIES = ("standard", "rapid", "blitz")
SYSTEMS = ("swiss", "round_robin", "team")


class FideRegistration(Base):
    __tablename__ = "fide_registrations"
    __table_args__ = (
        CheckConstraint("category IN ('standard', 'rapid', 'blitz')", name="category"),
        CheckConstraint("system IN ('swiss', 'round_robin', 'team')", name="system"),
        CheckConstraint("rounds BETWEEN 1 AND 99", name="rounds"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    announcement_id: Mapped[int] = mapped_column(ForeignKey("tournament_announcements.id"), unique=True)
    chief_arbiter_fide_id: Mapped[int] = mapped_column(BigInteger)
    chief_arbiter_name: Mapped[str] = mapped_column(String(120))
    deputy_arbiter_fide_id: Mapped[int | None] = mapped_column(BigInteger)
    deputy_arbiter_name: Mapped[str | None] = mapped_column(String(120))
    rate_of_play: Mapped[str] = mapped_column(String(100))
    category: Mapped[str] = mapped_column(String(8))
    system: Mapped[str] = mapped_column(String(12))
    rounds: Mapped[int]
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    registered_by: Mapped[str] = mapped_column(String(100))
    #: days between the registration's day and the start (FIDE asks for at least 42)
    days_before: Mapped[int]
    #: the warnings answered when it was made (an unknown arbiter, a late registration)
    warnings: Mapped[list[Any]] = mapped_column(JSON, default=list)
