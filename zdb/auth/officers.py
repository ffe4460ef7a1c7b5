"""The rating officers: who is responsible for a federation's evaluations, and the token with
which he acts. Kept beside the tokens, below every room that asks it (the review of
submissions, the routing of complaints, the public directory), so that each finds the same
person."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["RatingOfficer"]


class RatingOfficer(Base):
    """Who is responsible for a federation's evaluations: the name the public directory shows,
    the address the contact form's messages go to (never shown), and the token with which the
    officer decides reviews."""

    __tablename__ = "rating_officers"

    prefix: Mapped[str] = mapped_column(ForeignKey("federations.prefix", ondelete="CASCADE"), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    email: Mapped[str] = mapped_column(String(254))
    token_id: Mapped[int | None] = mapped_column(ForeignKey("api_tokens.id"), index=True)
    set_by: Mapped[str] = mapped_column(String(100))
    set_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
