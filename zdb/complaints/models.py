"""A complaint, its notes and what was changed for it.

A complaint names what it is about (an evaluation: a tournament; a record: a person), who filed
it (a player by person number with an e-mail address to answer to, a club, a referee, the
office) and to whom it was routed (``zdb.complaints.routing``). Its state changes only with a
note (who, when, why); ``revision`` counts the changes, so that of two officers deciding at
once one wins and the other is told (409). The complainant follows it through a private link:
only the SHA-256 of the link's secret is kept. The e-mail address is read by the staff it is
routed to, never shown publicly.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, CheckConstraint, DateTime, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["CLOSED", "OPEN", "STATES", "Complaint", "ComplaintLink", "ComplaintNote"]

STATES = ("new", "in_progress", "resolved", "dismissed")
OPEN = ("new", "in_progress")
CLOSED = ("resolved", "dismissed")


class Complaint(Base):
    __tablename__ = "complaints"
    __table_args__ = (
        CheckConstraint("filer_kind IN ('player', 'club', 'referee', 'office')", name="filer_kind"),
        CheckConstraint("subject IN ('evaluation', 'record')", name="subject"),
        CheckConstraint("state IN ('new', 'in_progress', 'resolved', 'dismissed')", name="state"),
        CheckConstraint("routed_to IN ('referee', 'officer', 'office')", name="routed_to"),
        CheckConstraint("subject = 'record' OR tournament_id IS NOT NULL", name="evaluation_names_tournament"),
        CheckConstraint("subject = 'evaluation' OR person_pkz IS NOT NULL", name="record_names_person"),
        Index("ix_complaints_tournament_id_state", "tournament_id", "state"),
        Index("ix_complaints_email_filed_at", "email", "filed_at"),
        Index("ix_complaints_state_filed_at", "state", "filed_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    filed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: player (the public, by person number), club, referee, office (an admin token)
    filer_kind: Mapped[str] = mapped_column(String(8))
    filer_pkz: Mapped[int | None] = mapped_column(BigInteger, ForeignKey("players.pkz"))
    #: where the answer goes; never shown publicly
    email: Mapped[str | None] = mapped_column(String(254))
    filer_club: Mapped[str | None] = mapped_column(String(5))
    filed_by: Mapped[str] = mapped_column(String(100))
    subject: Mapped[str] = mapped_column(String(10))
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"))
    person_pkz: Mapped[int | None] = mapped_column(BigInteger, ForeignKey("players.pkz"))
    text: Mapped[str] = mapped_column(String(4000))
    state: Mapped[str] = mapped_column(String(11))
    revision: Mapped[int]
    routed_to: Mapped[str] = mapped_column(String(8))
    routed_scope: Mapped[str | None] = mapped_column(String(5))
    routed_token_id: Mapped[int | None] = mapped_column(ForeignKey("api_tokens.id"))
    #: the published edition whose complaint period the complaint fell in (None: not yet published)
    edition_id: Mapped[int | None] = mapped_column(ForeignKey("list_editions.id"))
    #: filed by the office after the edition's complaint period had ended
    late: Mapped[bool]
    follow_hash: Mapped[str] = mapped_column(String(64), unique=True)
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ComplaintNote(Base):
    """A note on a complaint; ``state`` is the state it set (None: a note alone)."""

    __tablename__ = "complaint_notes"

    id: Mapped[int] = mapped_column(primary_key=True)
    complaint_id: Mapped[int] = mapped_column(ForeignKey("complaints.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    by: Mapped[str] = mapped_column(String(100))
    state: Mapped[str | None] = mapped_column(String(11))
    text: Mapped[str | None] = mapped_column(String(4000))


class ComplaintLink(Base):
    """A change made for a complaint: a tournament's correction, a change of a person's record."""

    __tablename__ = "complaint_links"
    __table_args__ = (CheckConstraint("kind IN ('correction', 'record')", name="kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    complaint_id: Mapped[int] = mapped_column(ForeignKey("complaints.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(10))
    target: Mapped[str] = mapped_column(String(100))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    by: Mapped[str] = mapped_column(String(100))
