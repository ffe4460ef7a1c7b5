"""The tables of the review: the federations' review rules, the rating officers, the trusted
referees, the submissions waiting in review with their decisions, and the messages sent to an
officer through the public directory.

A submission waiting in review is kept whole (its checked players and games, as JSON) and is
no tournament yet: nothing of it is in the time line before approval, and a correction waiting
in review leaves the tournament's approved version evaluated meanwhile.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, CheckConstraint, Date, DateTime, ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["OfficerMessage", "Review", "ReviewSetting", "TrustedReferee"]

#: off: submissions are stored at once; required: they wait for the responsible officer
REVIEW_RULES = ("off", "required")
#: waiting for the officer; approved (stored as a tournament); rejected (with a reason)
REVIEW_STATES = ("waiting", "approved", "rejected")


class ReviewSetting(Base):
    """A federation's own review rule; a null value is inherited from its parent."""

    __tablename__ = "review_settings"
    __table_args__ = (CheckConstraint("review IN ('off', 'required')", name="review"),)

    prefix: Mapped[str] = mapped_column(ForeignKey("federations.prefix", ondelete="CASCADE"), primary_key=True)
    review: Mapped[str | None] = mapped_column(String(8))
    #: whether a trusted referee's submissions are stored without review
    trusted_exempt: Mapped[bool | None] = mapped_column(Boolean)


class TrustedReferee(Base):
    """A referee's token whose submissions a federation may exempt from review."""

    __tablename__ = "trusted_referees"

    token_id: Mapped[int] = mapped_column(ForeignKey("api_tokens.id", ondelete="CASCADE"), primary_key=True)
    set_by: Mapped[str] = mapped_column(String(100))
    set_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Review(Base):
    """A submission (a new tournament or a correction) waiting for, or decided by, the
    responsible officer. ``responsible_prefix`` is the federation whose officer was responsible
    when it arrived; an officer of a federation above may decide in his stead."""

    __tablename__ = "reviews"
    __table_args__ = (
        CheckConstraint("state IN ('waiting', 'approved', 'rejected')", name="state"),
        CheckConstraint("state = 'waiting' OR (decided_by IS NOT NULL AND decided_at IS NOT NULL)", name="decided"),
        CheckConstraint("state <> 'rejected' OR reason IS NOT NULL", name="rejected_reason"),
        Index("ix_reviews_state_responsible", "state", "responsible_prefix"),
        # two equal submissions racing each other are never both held (``zdb.reviews.waiting_duplicates``)
        Index(
            "uq_reviews_waiting_fingerprint",
            "fingerprint",
            unique=True,
            postgresql_where=text("state = 'waiting'"),
            sqlite_where=text("state = 'waiting'"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    state: Mapped[str] = mapped_column(String(10), default="waiting")
    #: the corrected tournament; a new one's id once it is approved
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    correction: Mapped[bool] = mapped_column(Boolean, default=False)
    federation_prefix: Mapped[str] = mapped_column(ForeignKey("federations.prefix"))
    responsible_prefix: Mapped[str] = mapped_column(String(4))
    acronym: Mapped[str] = mapped_column(String(3))
    name: Mapped[str] = mapped_column(String(200))
    end_date: Mapped[date] = mapped_column(Date)
    players: Mapped[int]
    games: Mapped[int]
    #: the checked submission (``zdb.reviews.stored_submission``)
    submission: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: its canonical content as a hash (``zdb.tournaments.duplicates.fingerprint``; null: held
    #: before it was kept, 0020)
    fingerprint: Mapped[str | None] = mapped_column(String(64))
    announcement_id: Mapped[int | None] = mapped_column(ForeignKey("tournament_announcements.id"))
    submitted_by: Mapped[str] = mapped_column(String(100))
    submitter_token_id: Mapped[int | None] = mapped_column(ForeignKey("api_tokens.id"), index=True)
    submitted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    decided_by: Mapped[str | None] = mapped_column(String(100))
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: the officer's reason (required for a rejection; an approval's note)
    reason: Mapped[str | None] = mapped_column(String(1000))


class OfficerMessage(Base):
    """A message sent to a federation's officer through the directory's contact form. The
    sender's address is shown to the officer only; ``sender_address`` is a hash of the client's
    network address, which the form's limit counts by."""

    __tablename__ = "officer_messages"
    __table_args__ = (
        Index("ix_officer_messages_prefix_sent_at", "prefix", "sent_at"),
        Index("ix_officer_messages_sender_address_sent_at", "sender_address", "sent_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    prefix: Mapped[str] = mapped_column(ForeignKey("federations.prefix", ondelete="CASCADE"))
    club_code: Mapped[str | None] = mapped_column(String(5))
    sender_name: Mapped[str] = mapped_column(String(200))
    sender_email: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(String(4000))
    sender_address: Mapped[str] = mapped_column(String(64))
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
