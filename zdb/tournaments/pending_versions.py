"""SQL about stored tournaments' versions: which are pending evaluation, where each stands in
the time line. The engine's view of their players and games is ``zdb.tournaments.engine_view``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from sqlalchemy import and_, or_, select, tuple_
from sqlalchemy.orm import Session

from zdb.tournaments.models import TournamentRecord, TournamentVersion

__all__ = ["PendingTournament", "pending_tournaments", "version_keys"]


@dataclass(frozen=True, slots=True)
class PendingTournament:
    """A tournament whose stored evaluation does not match what was submitted."""

    id: int
    current_version: int
    withdrawn: bool
    evaluated_version: int | None


def pending_tournaments(session: Session) -> list[PendingTournament]:
    """Tournaments not evaluated in their current version, withdrawn but still evaluated, or
    whose evaluation is stale (a participant's fact changed)."""
    t = TournamentRecord
    rows = session.execute(
        select(t.id, t.current_version, t.status, t.evaluated_version).where(
            or_(
                and_(
                    t.status != "withdrawn",
                    or_(t.evaluated_version.is_(None), t.evaluated_version != t.current_version),
                ),
                and_(t.status == "withdrawn", t.evaluated_version.is_not(None)),
                and_(t.status != "withdrawn", t.stale_generation.is_not(None)),
            )
        )
    ).all()
    return [PendingTournament(r.id, r.current_version, r.status == "withdrawn", r.evaluated_version) for r in rows]


def version_keys(session: Session, versions: Iterable[tuple[int, int]]) -> dict[tuple[int, int], tuple[date, str]]:
    """(end_date, acronym) of the given (tournament id, version) pairs."""
    wanted = list(versions)
    if not wanted:
        return {}
    v = TournamentVersion
    rows = session.execute(
        select(v.tournament_id, v.version, v.end_date, v.acronym).where(tuple_(v.tournament_id, v.version).in_(wanted))
    ).all()
    return {(r.tournament_id, r.version): (r.end_date, r.acronym) for r in rows}
