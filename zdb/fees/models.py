"""Fee schedules, the fees computed for each evaluated tournament, and invoices.

Money is kept in whole cents (integers): exact on PostgreSQL and SQLite alike, and shown as
decimals (``zdb.fees.money``).

- ``fee_schedules``: a federation's fees from a day on (to a day, or open); two schedules of
  one federation never overlap (``zdb.fees.schedules`` refuses it).
- ``fee_assessments``: the "fees computed" record of one evaluated version of a tournament (or
  of its withdrawal), with the basis the fees were computed from (players, games, non-members,
  average Elo, days late) and the schedule used. Never changed once written.
- ``fee_lines``: the ledger. A charge, or a credit that cancels one charge (``credit_of``);
  never edited, only put on one invoice.
- ``fee_invoices``: an organiser's invoice for a period; numbered, never changed once issued.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    Index,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["LINE_KINDS", "FeeAssessment", "FeeInvoice", "FeeLine", "FeeSchedule"]

#: what a line charges: the national (DWZ) fees and FIDE's
LINE_KINDS = ("dwz_tournament", "dwz_game", "dwz_non_member", "fide_player", "fide_round_robin", "fide_late")


class FeeSchedule(Base):
    __tablename__ = "fee_schedules"
    __table_args__ = (
        CheckConstraint("valid_until IS NULL OR valid_from <= valid_until", name="dates"),
        CheckConstraint(
            "dwz_tournament_cents >= 0 AND dwz_game_cents >= 0 AND dwz_non_member_cents >= 0"
            " AND fide_player_cents >= 0 AND fide_late_cents >= 0",
            name="amounts",
        ),
        Index("ix_fee_schedules_federation", "federation_prefix", "valid_from"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    federation_prefix: Mapped[str] = mapped_column(ForeignKey("federations.prefix"))
    valid_from: Mapped[date] = mapped_column(Date)
    #: the last day it applies to (None: open)
    valid_until: Mapped[date | None] = mapped_column(Date)
    dwz_tournament_cents: Mapped[int] = mapped_column(BigInteger, default=0)
    dwz_game_cents: Mapped[int] = mapped_column(BigInteger, default=0)
    dwz_non_member_cents: Mapped[int] = mapped_column(BigInteger, default=0)
    #: per player of a Swiss or team tournament
    fide_player_cents: Mapped[int] = mapped_column(BigInteger, default=0)
    #: per player of a round robin by the average Elo: [[lowest average, cents], ...] ascending
    fide_round_robin_tiers: Mapped[list[Any]] = mapped_column(JSON, default=list)
    fide_late_cents: Mapped[int] = mapped_column(BigInteger, default=0)
    note: Mapped[str] = mapped_column(String(200), default="")
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    changed_by: Mapped[str] = mapped_column(String(100))


class FeeAssessment(Base):
    __tablename__ = "fee_assessments"
    __table_args__ = (
        CheckConstraint("reason IN ('evaluation', 'withdrawal')", name="reason"),
        UniqueConstraint("tournament_id", "version", "reason"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    version: Mapped[int]
    reason: Mapped[str] = mapped_column(String(10))
    payer: Mapped[str] = mapped_column(String(200))
    schedule_id: Mapped[int | None] = mapped_column(ForeignKey("fee_schedules.id"))
    end_date: Mapped[date] = mapped_column(Date)
    players: Mapped[int]
    games: Mapped[int]
    non_members: Mapped[int]
    fide_system: Mapped[str | None] = mapped_column(String(12))
    average_elo: Mapped[int | None]
    days_late: Mapped[int | None]
    computed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class FeeInvoice(Base):
    __tablename__ = "fee_invoices"
    __table_args__ = (CheckConstraint("period_from <= period_to", name="period"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[str] = mapped_column(String(12), unique=True)
    payer: Mapped[str] = mapped_column(String(200), index=True)
    period_from: Mapped[date] = mapped_column(Date)
    period_to: Mapped[date] = mapped_column(Date)
    total_cents: Mapped[int] = mapped_column(BigInteger)
    issued_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    issued_by: Mapped[str] = mapped_column(String(100))


class FeeLine(Base):
    __tablename__ = "fee_lines"
    __table_args__ = (
        CheckConstraint(
            "kind IN ('dwz_tournament', 'dwz_game', 'dwz_non_member', 'fide_player', 'fide_round_robin', 'fide_late')",
            name="kind",
        ),
        Index("ix_fee_lines_open", "payer", "invoice_id", "booked_on"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    assessment_id: Mapped[int] = mapped_column(ForeignKey("fee_assessments.id"), index=True)
    tournament_id: Mapped[int] = mapped_column(index=True)
    payer: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(20))
    quantity: Mapped[int]
    unit_cents: Mapped[int] = mapped_column(BigInteger)
    #: quantity x unit, negative for a credit
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    #: the charge this line cancels (a credit); a charge is cancelled at most once
    credit_of: Mapped[int | None] = mapped_column(ForeignKey("fee_lines.id"), unique=True)
    booked_on: Mapped[date] = mapped_column(Date)
    invoice_id: Mapped[int | None] = mapped_column(ForeignKey("fee_invoices.id"), index=True)
