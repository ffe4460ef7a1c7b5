"""The record of every recalculation run: the run, the tournaments it re-evaluated and, per person
whose rating or index it changed, the values before and after. Tables only: the recalculation
writes them (``zdb.recalculation.impact``), the tournaments' states and the office read them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Integer, SmallInteger, func
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["RunChange", "RunRecord", "RunTournament"]


class RunRecord(Base):
    __tablename__ = "recalc_runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now(), index=True)
    generation: Mapped[int] = mapped_column(BigInteger)
    from_scratch: Mapped[bool]
    tournaments: Mapped[int]
    moved: Mapped[int]  # persons whose rating or index changed
    largest_change: Mapped[int | None]  # the rating change of the largest size, with its sign


class RunTournament(Base):
    __tablename__ = "recalc_run_tournaments"

    run_id: Mapped[int] = mapped_column(ForeignKey("recalc_runs.id", ondelete="CASCADE"), primary_key=True)
    tournament_id: Mapped[int] = mapped_column(Integer, primary_key=True, index=True)


class RunChange(Base):
    __tablename__ = "recalc_run_changes"

    run_id: Mapped[int] = mapped_column(ForeignKey("recalc_runs.id", ondelete="CASCADE"), primary_key=True)
    player_pkz: Mapped[int] = mapped_column(BigInteger, primary_key=True, index=True)
    old_rating: Mapped[int | None]
    old_index: Mapped[int | None] = mapped_column(SmallInteger)
    new_rating: Mapped[int | None]
    new_index: Mapped[int | None] = mapped_column(SmallInteger)
