"""What the recalculation stores.

- ``evaluations``: one report row per participant per evaluated tournament version, every figure
  of spec §9 (R0-i, W, n, unrated games, We, E or K, Rh, Sonderwertung, Rn-i, …).
- ``rating_history``: one row per player per event of the time line (tournament, conversion,
  start rating) with his state before and after: the player card's history, and the stored
  steps the incremental replay starts from. Its primary key is the order key, so the steps
  from a position on are one range scan.
- ``player_ratings``: the state after the last event (current rating-index, leftover games).
- ``initial_states``: the state before the first event (an imported list).
- ``start_ratings``: ratings set by federation staff, events of the time line (spec §2).
- ``recalc_state``: the earliest dirty position, the generation counter, progress.
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
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Numeric,
    SmallInteger,
    String,
    Text,
    func,
)
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = ["Evaluation", "HistoryRow", "InitialState", "PlayerRating", "RecalcState", "StartRatingRow"]


class Evaluation(Base):
    __tablename__ = "evaluations"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "version", "player_pkz"],
            ["participants.tournament_id", "participants.version", "participants.player_pkz"],
            ondelete="CASCADE",
        ),
        CheckConstraint("stage IN ('established', 'stage1', 'stage2', 'unrated')", name="stage"),
        CheckConstraint("e IS NULL OR k IS NULL", name="e_or_k"),
    )

    tournament_id: Mapped[int] = mapped_column(primary_key=True)
    version: Mapped[int] = mapped_column(primary_key=True)
    player_pkz: Mapped[int] = mapped_column(BigInteger, primary_key=True, index=True)
    position: Mapped[int]
    rule_set: Mapped[str] = mapped_column(String(20))
    member: Mapped[bool]
    stage: Mapped[str] = mapped_column(String(11))
    fide_start: Mapped[bool]
    r0: Mapped[int | None]
    i0: Mapped[int | None]
    w: Mapped[float] = mapped_column(Numeric(6, 1, asdecimal=False))
    n: Mapped[int]
    unrated_games: Mapped[int]
    we: Mapped[float | None] = mapped_column(Float)
    e: Mapped[int | None]
    k: Mapped[float | None] = mapped_column(Numeric(4, 1, asdecimal=False))
    rh: Mapped[int | None]
    sonder: Mapped[bool]
    rn: Mapped[int | None]
    i_new: Mapped[int | None]
    stored: Mapped[bool]
    leftover_used: Mapped[int]
    leftover_stored: Mapped[int]


class HistoryRow(Base):
    __tablename__ = "rating_history"
    __table_args__ = (
        CheckConstraint("event_phase IN (0, 1, 2)", name="phase"),
        Index("ix_rating_history_player", "player_pkz", "event_date", "event_phase", "event_text", "event_id"),
        Index("ix_rating_history_tournament", "tournament_id"),
    )

    # The order key (spec §2): date, phase (0 start rating, 1 tournament, 2 conversion), text
    # (acronym; player for a start rating; name of a conversion), id (tournament id or 0).
    # The text compares by code point as in the engine: COLLATE "C" on PostgreSQL (0004).
    event_date: Mapped[date] = mapped_column(Date, primary_key=True)
    event_phase: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    event_text: Mapped[str] = mapped_column(String(40), primary_key=True)
    event_id: Mapped[int] = mapped_column(primary_key=True)
    player_pkz: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.pkz"), primary_key=True)
    tournament_id: Mapped[int | None]
    tournament_version: Mapped[int | None]
    old_rating: Mapped[int | None]
    old_index: Mapped[int] = mapped_column(SmallInteger)
    old_leftover: Mapped[list[Any] | None] = mapped_column(JSON)
    new_rating: Mapped[int | None]
    new_index: Mapped[int] = mapped_column(SmallInteger)
    new_leftover: Mapped[list[Any] | None] = mapped_column(JSON)
    evaluated: Mapped[bool | None]


class PlayerRating(Base):
    __tablename__ = "player_ratings"

    player_pkz: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.pkz"), primary_key=True)
    rating: Mapped[int | None] = mapped_column(index=True)
    rating_index: Mapped[int] = mapped_column(SmallInteger)
    leftover: Mapped[list[Any] | None] = mapped_column(JSON)
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now(), index=True)


class InitialState(Base):
    __tablename__ = "initial_states"

    player_pkz: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.pkz"), primary_key=True)
    rating: Mapped[int | None]
    rating_index: Mapped[int] = mapped_column(SmallInteger)
    leftover: Mapped[list[Any] | None] = mapped_column(JSON)


class StartRatingRow(Base):
    __tablename__ = "start_ratings"
    __table_args__ = (CheckConstraint("rating_index >= 0", name="index"),)

    player_pkz: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.pkz"), primary_key=True)
    rating_date: Mapped[date] = mapped_column(Date, primary_key=True)
    rating: Mapped[int]
    rating_index: Mapped[int] = mapped_column(SmallInteger)
    evaluated: Mapped[bool] = mapped_column(default=False)
    set_by: Mapped[str] = mapped_column(String(100), default="")
    set_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class RecalcState(Base):
    """One row. ``generation`` rises with every change to the time line; a run clears the dirty
    position only if the generation is still the one it started from (nothing is lost)."""

    __tablename__ = "recalc_state"
    __table_args__ = (CheckConstraint("id = 1", name="single_row"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    generation: Mapped[int] = mapped_column(BigInteger, default=0)
    dirty_date: Mapped[date | None] = mapped_column(Date)
    dirty_phase: Mapped[int | None] = mapped_column(SmallInteger)
    dirty_text: Mapped[str | None] = mapped_column(String(40))
    dirty_id: Mapped[int | None]
    #: when the time line became dirty (the oldest change still waiting for a run): the
    #: operator's "dirty age" (``/metrics``); cleared with the dirty position
    dirty_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    running_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    progress_done: Mapped[int] = mapped_column(default=0)
    progress_total: Mapped[int] = mapped_column(default=0)
    last_started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_generation: Mapped[int | None] = mapped_column(BigInteger)
    last_evaluated: Mapped[int | None]
    last_changed_players: Mapped[int | None]
    last_duration_ms: Mapped[int | None]
    last_error: Mapped[str | None] = mapped_column(Text)
