"""A tournament's states that everyone can see: submitted, corrected, withdrawn (and the
review's in review, approved, rejected), each with who, when and why, and evaluated.

Why a table of its own: the tournament's row holds only where it stands now, and the
recalculation's status (received, evaluated) says nothing about who did what. The doors record
each change here as they make it, in the same transaction (``record_state``). "Evaluated" is
not written here: the recalculation is the one that evaluates, and its runs already record
which tournaments each evaluated and when (``recalc_run_tournaments``); the history reads them,
so that the recalculation's hot path writes nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.errors import NotFoundError
from zdb.messages import Message
from zdb.outbox.seam import enqueue
from zdb.timeline.run_records import RunRecord, RunTournament
from zdb.tournaments.models import TournamentRecord, TournamentState

__all__ = ["StateChange", "TournamentStates", "record_state", "tournament_states"]

#: by whom the history says a tournament was evaluated
RECALCULATION = "recalculation"


@dataclass(frozen=True, slots=True)
class StateChange:
    state: str
    at: datetime
    by: str
    why: str | None = None
    version: int | None = None


@dataclass(frozen=True, slots=True)
class TournamentStates:
    """Where a tournament stands now, and how it got there (oldest first)."""

    state: str
    history: tuple[StateChange, ...]


def record_state(
    session: Session,
    tournament_id: int,
    state: str,
    *,
    by: str,
    why: str | None = None,
    version: int | None = None,
    at: datetime | None = None,
) -> None:
    moment = at or datetime.now(UTC)
    session.add(TournamentState(tournament_id=tournament_id, state=state, version=version, at=moment, by=by, why=why))
    # the subscribers hear of it once this commits (zdb.notifications.fanout)
    payload = {"tournament": tournament_id, "state": state, "version": version, "at": moment.isoformat()}
    enqueue(session, "tournament.state", payload)


def _aware(moment: datetime) -> datetime:
    """SQLite gives the moments back without their zone; they were stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def tournament_states(session: Session, tournament_id: int) -> TournamentStates:
    """The recorded changes and the recalculation's runs that evaluated the tournament, in time
    order; the state now. A tournament evaluated in its current version (and not stale) is
    "evaluated"; otherwise it stands in its last recorded state (a tournament stored before the
    states were recorded: "submitted")."""
    record = session.get(TournamentRecord, tournament_id)
    if record is None:
        raise NotFoundError(Message("tournament {id} does not exist", id=tournament_id))
    t = TournamentState
    recorded = [
        StateChange(r.state, _aware(r.at), r.by, r.why, r.version)
        for r in session.execute(select(t).where(t.tournament_id == tournament_id).order_by(t.at, t.id)).scalars()
    ]
    runs = [
        StateChange("evaluated", _aware(at), RECALCULATION)
        for at in session.execute(
            select(RunRecord.finished_at)
            .join(RunTournament, RunTournament.run_id == RunRecord.id)
            .where(RunTournament.tournament_id == tournament_id)
            .order_by(RunRecord.finished_at)
        ).scalars()
    ]
    # in time order (runs record their moment to the microsecond, ``zdb.recalculation.impact``);
    # at the same moment a recorded change comes first: a run evaluates what was committed before it
    history = tuple(sorted([*recorded, *runs], key=lambda c: (c.at, c.by == RECALCULATION)))
    withdrawn = [k for k, c in enumerate(history) if c.state == "withdrawn"]
    if withdrawn:  # a run after the withdrawal removed its evaluation: the withdrawal is the last word
        history = history[: withdrawn[-1] + 1]
    if record.status == "withdrawn":
        state = "withdrawn"
    elif record.evaluated_version == record.current_version and record.stale_generation is None:
        state = "evaluated"
    else:
        last = [c.state for c in recorded if c.state != "withdrawn"]
        state = last[-1] if last else "submitted"
    return TournamentStates(state, history)
