"""What an imported list leaves beside the register.

- ``list_imports``: one row per import of a rating list or a FIDE list (command or upload): the
  file, the list's date, the state of a run in the worker with its progress, and the answer
  (the difference). An upload's bytes wait in ``payload`` for the worker and are dropped after.
- ``list_baselines``: per person a list brought in, the epoch of his starting state (the
  list's date: every tournament ending on or before it is inside the list's rating) and the
  list's "Letzte Auswertung", shown as his last evaluation until a tournament replaces it.
- ``fide_ratings``: FIDE's list as dated editions, one row per FIDE id and edition.
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
    LargeBinary,
    SmallInteger,
    String,
    Text,
    func,
)
from sqlalchemy.orm import Mapped, mapped_column

# The tokens' table, which ``ListImport.actor_token_id`` and the audit entries of an import name:
# a process that imports the lists alone (the list worker, the command line) must know it to flush.
from zdb.auth import models as _token_models  # noqa: F401
from zdb.orm import Base

__all__ = ["FideRatingRow", "ListBaseline", "ListImport"]


class ListImport(Base):
    __tablename__ = "list_imports"
    __table_args__ = (
        CheckConstraint("kind IN ('list', 'fide')", name="kind"),
        CheckConstraint("status IN ('waiting', 'running', 'done', 'refused', 'failed')", name="status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(4))
    file_name: Mapped[str] = mapped_column(String(200))
    list_date: Mapped[date | None] = mapped_column(Date)
    encoding: Mapped[str | None] = mapped_column(String(20))
    dry_run: Mapped[bool] = mapped_column(Boolean, default=False)
    skip_problems: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(8), default="waiting")
    progress_done: Mapped[int] = mapped_column(default=0)
    progress_total: Mapped[int] = mapped_column(default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    error: Mapped[str | None] = mapped_column(Text)
    #: why a refused import was refused, as the pages translate it: per problem its place and
    #: its text (plain, or a ``Message`` as ``as_json`` stores it); ``error`` says it in English
    refusal: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    payload: Mapped[bytes | None] = mapped_column(LargeBinary)
    actor_token_id: Mapped[int | None] = mapped_column(ForeignKey("api_tokens.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: written by the worker while the import runs (PostgreSQL): a ``running`` import whose
    #: heartbeat is older than ``Settings.import_lost_seconds`` lost its worker
    heartbeat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ListBaseline(Base):
    __tablename__ = "list_baselines"

    player_pkz: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.pkz", ondelete="CASCADE"), primary_key=True)
    epoch: Mapped[date] = mapped_column(Date)
    #: the list's "Letzte Auswertung", YYYYWW
    last_evaluation: Mapped[str | None] = mapped_column(String(6))
    import_id: Mapped[int | None] = mapped_column(ForeignKey("list_imports.id"))


class FideRatingRow(Base):
    __tablename__ = "fide_ratings"

    fide_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    edition: Mapped[date] = mapped_column(Date, primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    federation: Mapped[str] = mapped_column(String(3))
    sex: Mapped[str | None] = mapped_column(String(1))
    title: Mapped[str | None] = mapped_column(String(3))
    women_title: Mapped[str | None] = mapped_column(String(3))
    other_titles: Mapped[str | None] = mapped_column(String(60))
    standard: Mapped[int | None] = mapped_column(SmallInteger)
    standard_games: Mapped[int] = mapped_column(SmallInteger, default=0)
    standard_k: Mapped[int | None] = mapped_column(SmallInteger)
    rapid: Mapped[int | None] = mapped_column(SmallInteger)
    rapid_games: Mapped[int] = mapped_column(SmallInteger, default=0)
    rapid_k: Mapped[int | None] = mapped_column(SmallInteger)
    blitz: Mapped[int | None] = mapped_column(SmallInteger)
    blitz_games: Mapped[int] = mapped_column(SmallInteger, default=0)
    blitz_k: Mapped[int | None] = mapped_column(SmallInteger)
    birth_year: Mapped[int | None] = mapped_column(SmallInteger)
    flags: Mapped[str] = mapped_column(String(4), default="")
