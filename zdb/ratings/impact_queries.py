"""Reading the impact of recalculation runs: the runs, newest first; one run's changes, the
largest first; the last run that re-evaluated a tournament."""

from __future__ import annotations

from pydantic import BaseModel, Field
from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from zdb.common.utc import UtcDateTime
from zdb.errors import NotFoundError
from zdb.players.models import Player
from zdb.players.privacy import public_name_column
from zdb.timeline.run_records import RunChange, RunRecord, RunTournament

__all__ = ["RunChangeOut", "RunOut", "run_changes", "runs", "tournament_impact"]


class RunOut(BaseModel):
    id: int = Field(examples=[412])
    finished_at: UtcDateTime = Field(examples=["2026-10-02T06:01:12Z"])
    from_scratch: bool
    tournaments: int = Field(description="tournaments re-evaluated", examples=[11])
    moved: int = Field(description="persons whose rating or index changed", examples=[35])
    largest_change: int | None = Field(description="the rating change of the largest size, signed", examples=[21])
    summary: str = Field(examples=["11 tournaments re-evaluated; moved 35 players; the largest change +21"])


class RunChangeOut(BaseModel):
    pkz: int
    name: str
    old_rating: int | None
    old_index: int | None
    new_rating: int | None
    new_index: int | None
    change: int | None = Field(description="new rating minus old; null when either is missing")


def _summary(run: RunRecord) -> str:
    words = [
        f"{run.tournaments} tournament{'s' if run.tournaments != 1 else ''} re-evaluated",
        f"moved {run.moved} player{'s' if run.moved != 1 else ''}",
    ]
    if run.largest_change is not None:
        words.append(f"the largest change {run.largest_change:+d}")
    return "; ".join(words)


def _out(run: RunRecord) -> RunOut:
    return RunOut(
        id=run.id,
        finished_at=run.finished_at,
        from_scratch=run.from_scratch,
        tournaments=run.tournaments,
        moved=run.moved,
        largest_change=run.largest_change,
        summary=_summary(run),
    )


def runs(session: Session, *, limit: int, offset: int) -> tuple[list[RunOut], int]:
    total = session.execute(select(func.count()).select_from(RunRecord)).scalar_one()
    found = session.scalars(select(RunRecord).order_by(RunRecord.id.desc()).limit(limit).offset(offset))
    return [_out(r) for r in found], int(total)


def run_changes(session: Session, run_id: int, *, limit: int, offset: int) -> tuple[list[RunChangeOut], int]:
    if session.get(RunRecord, run_id) is None:
        raise NotFoundError(f"no recalculation run has the id {run_id}")
    c, p = RunChange, Player
    change = case((c.old_rating.is_not(None) & c.new_rating.is_not(None), c.new_rating - c.old_rating), else_=None)
    total = session.execute(select(func.count()).select_from(c).where(c.run_id == run_id)).scalar_one()
    rows = session.execute(
        select(
            c,
            public_name_column(p.given_name, given=True).label("given_name"),
            public_name_column(p.surname).label("surname"),
            change.label("change"),
        )
        .join(p, p.pkz == c.player_pkz)
        .where(c.run_id == run_id)
        .order_by(func.abs(func.coalesce(change, 0)).desc(), c.player_pkz)
        .limit(limit)
        .offset(offset)
    ).all()
    items = [
        RunChangeOut(
            pkz=r[0].player_pkz,
            name=f"{r.given_name} {r.surname}".strip(),
            old_rating=r[0].old_rating,
            old_index=r[0].old_index,
            new_rating=r[0].new_rating,
            new_index=r[0].new_index,
            change=r.change,
        )
        for r in rows
    ]
    return items, int(total)


def tournament_impact(session: Session, tournament_id: int) -> RunOut:
    """The last run that re-evaluated the tournament: what its arrival (or correction) moved."""
    run = session.scalars(
        select(RunRecord)
        .join(RunTournament, RunTournament.run_id == RunRecord.id)
        .where(RunTournament.tournament_id == tournament_id)
        .order_by(RunRecord.id.desc())
        .limit(1)
    ).first()
    if run is None:
        raise NotFoundError(f"no recalculation has evaluated tournament {tournament_id} yet")
    return _out(run)
