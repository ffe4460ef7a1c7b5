"""Tournaments, their versions, participants and games.

A tournament's id is given at first submission and kept across corrections; every correction
is a new version, and older versions stay for the record. ``evaluated_version`` says which
version the stored evaluation belongs to: a tournament whose current version differs from it
(or that was withdrawn after being evaluated) is a pending change of the time line; so is one
whose ``stale_generation`` is set: a participant's fact (his birth year) changed after it was
evaluated, and its stored evaluation must be redone with the same version. Games are
inserted tournament by tournament, so each tournament's games lie together on disk.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    String,
    UniqueConstraint,
    func,
)
from sqlalchemy.orm import Mapped, mapped_column

from zdb.orm import Base

__all__ = [
    "Announcement",
    "GameRow",
    "Participation",
    "TournamentFingerprint",
    "TournamentRecord",
    "TournamentState",
    "TournamentVersion",
]

RESULT_CODES = ("1-0", "0-1", "1/2-1/2", "+-", "-+", "--", "0-0", "1/2-0", "0-1/2")


class TournamentRecord(Base):
    __tablename__ = "tournaments"
    __table_args__ = (
        CheckConstraint("status IN ('received', 'evaluated', 'withdrawn')", name="status"),
        CheckConstraint("current_version >= 1", name="version"),
        Index("ix_tournaments_pending", "status", "current_version", "evaluated_version"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    current_version: Mapped[int]
    status: Mapped[str] = mapped_column(String(10), default="received")
    evaluated_version: Mapped[int | None]
    #: the time line's generation at which a participant's fact changed (None: the evaluation stands)
    stale_generation: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    created_by: Mapped[str] = mapped_column(String(100), default="")
    withdrawn_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    withdrawn_by: Mapped[str | None] = mapped_column(String(100))


class TournamentVersion(Base):
    __tablename__ = "tournament_versions"
    __table_args__ = (
        CheckConstraint("length(acronym) = 3", name="acronym"),
        CheckConstraint("kind IN ('individual', 'team_season')", name="kind"),
        CheckConstraint("start_date IS NULL OR start_date <= end_date", name="dates"),
        Index("ix_tournament_versions_order", "end_date", "acronym", "tournament_id"),
    )

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(primary_key=True)
    acronym: Mapped[str] = mapped_column(String(3))  # COLLATE "C" on PostgreSQL (0004): spec §2 order
    name: Mapped[str] = mapped_column(String(200), default="")
    federation_prefix: Mapped[str | None] = mapped_column(ForeignKey("federations.prefix"))
    start_date: Mapped[date | None] = mapped_column(Date)
    end_date: Mapped[date] = mapped_column(Date)
    round_dates: Mapped[list[Any] | None] = mapped_column(JSON)
    time_control: Mapped[str | None] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(12), default="individual")
    submitted_by: Mapped[str] = mapped_column(String(100), default="")
    submitted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class Participation(Base):
    """A player in one version of a tournament: at most once (the primary key)."""

    __tablename__ = "participants"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "version"],
            ["tournament_versions.tournament_id", "tournament_versions.version"],
            ondelete="CASCADE",
        ),
        UniqueConstraint("tournament_id", "version", "position"),
    )

    tournament_id: Mapped[int] = mapped_column(primary_key=True)
    version: Mapped[int] = mapped_column(primary_key=True)
    player_pkz: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.pkz"), primary_key=True, index=True)
    position: Mapped[int]
    birth_year: Mapped[int | None]
    member: Mapped[bool] = mapped_column(default=True)
    fide_rating: Mapped[int | None]


class GameRow(Base):
    __tablename__ = "games"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "version", "white_pkz"],
            ["participants.tournament_id", "participants.version", "participants.player_pkz"],
            ondelete="CASCADE",
        ),
        ForeignKeyConstraint(
            ["tournament_id", "version", "black_pkz"],
            ["participants.tournament_id", "participants.version", "participants.player_pkz"],
            ondelete="CASCADE",
        ),
        CheckConstraint("white_pkz <> black_pkz", name="not_self"),
        CheckConstraint("result IN " + str(RESULT_CODES), name="result"),
    )

    tournament_id: Mapped[int] = mapped_column(primary_key=True)
    version: Mapped[int] = mapped_column(primary_key=True)
    seq: Mapped[int] = mapped_column(primary_key=True)
    round: Mapped[int | None]
    board: Mapped[int | None]
    white_pkz: Mapped[int] = mapped_column(BigInteger)
    black_pkz: Mapped[int] = mapped_column(BigInteger)
    result: Mapped[str] = mapped_column(String(7))


class TournamentFingerprint(Base):
    """The canonical content (players, dates, games) of a live tournament's current version, as
    a hash: a submission equal to a stored tournament is found by one indexed lookup, and the
    unique key keeps two equal submissions racing each other from both being stored
    (``zdb.tournaments.duplicates``). Written by the referees' doors; a withdrawal or a
    correction removes the row (the door writes the corrected version's)."""

    __tablename__ = "tournament_fingerprints"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64), unique=True)


class Announcement(Base):
    """A tournament announced before it starts (WO 6.1: the intention to have it rated is known
    before play): the public calendar's entry, and what its submission is matched to
    (``tournament_id``, set when the submission is stored)."""

    __tablename__ = "tournament_announcements"
    __table_args__ = (
        CheckConstraint("start_date <= end_date", name="dates"),
        CheckConstraint("rounds BETWEEN 1 AND 99", name="rounds"),
        CheckConstraint("mode IN ('swiss', 'round_robin', 'team', 'other')", name="mode"),
        Index("ix_tournament_announcements_dates", "start_date", "end_date"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(12), unique=True)
    federation_prefix: Mapped[str] = mapped_column(ForeignKey("federations.prefix"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    place: Mapped[str] = mapped_column(String(100))
    start_date: Mapped[date] = mapped_column(Date)
    end_date: Mapped[date] = mapped_column(Date)
    rounds: Mapped[int]
    mode: Mapped[str] = mapped_column(String(12))
    time_control: Mapped[str] = mapped_column(String(100))
    organiser: Mapped[str] = mapped_column(String(200))
    referee: Mapped[str] = mapped_column(String(200))
    fide_rated: Mapped[bool] = mapped_column(Boolean, default=False)
    announced_by: Mapped[str] = mapped_column(String(100))
    announced_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"), unique=True)
    #: a cancelled announcement stays for the record, out of the calendar and of the matching
    cancelled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    cancelled_by: Mapped[str | None] = mapped_column(String(100))
    cancel_reason: Mapped[str | None] = mapped_column(String(500))


#: the states a tournament passes through, as the states table records them ("evaluated" is the
#: recalculation's, read from its runs: ``zdb.tournaments.states``)
STATES = ("submitted", "corrected", "withdrawn", "in_review", "approved", "rejected")


class TournamentState(Base):
    """One change of a tournament's state: which, who, when and why (the rating office's
    reason, a referee's note); kept for the record, never changed."""

    __tablename__ = "tournament_states"
    __table_args__ = (
        CheckConstraint("state IN " + str(STATES), name="state"),
        Index("ix_tournament_states_tournament_id_at", "tournament_id", "at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    state: Mapped[str] = mapped_column(String(12))
    version: Mapped[int | None]
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    by: Mapped[str] = mapped_column(String(100))
    why: Mapped[str | None] = mapped_column(String(1000))
