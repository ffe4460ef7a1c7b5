"""The impact of every recalculation run: which tournaments it re-evaluated and, per person
whose rating or index it changed, the values before and after.

The office reads it as "this late tournament moved 35 players; the largest change +21". A run
records its impact in its own transaction, so a run that is rolled back leaves none. Flushes,
never commits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.bulk import copy_rows, stream_rows
from zdb.outbox.seam import enqueue
from zdb.rating import PlayerState
from zdb.timeline.models import PlayerRating
from zdb.timeline.run_records import RunChange, RunRecord, RunTournament

__all__ = ["record_impact", "stored_ratings"]

Pair = tuple[int | None, int | None]


def stored_ratings(session: Session, pids: Iterable[str] | None = None) -> dict[str, Pair]:
    """The current (rating, index) of these players (None: every player with a row)."""
    p = PlayerRating
    query = select(p.player_pkz, p.rating, p.rating_index)
    if pids is None:
        return {str(pkz): _pair(rating, index) for pkz, rating, index in stream_rows(session, query)}
    wanted = [int(pid) for pid in pids]
    found: dict[str, Pair] = {}
    for start in range(0, len(wanted), 5000):
        for pkz, rating, index in session.execute(query.where(p.player_pkz.in_(wanted[start : start + 5000]))):
            found[str(pkz)] = _pair(rating, index)
    return found


def _pair(rating: int | None, index: int | None) -> Pair:
    # An unrated player's index is no rating: he has neither (his leftover games are no change).
    return (rating, index) if rating is not None else (None, None)


def record_impact(
    session: Session,
    *,
    generation: int,
    from_scratch: bool,
    tournaments: Iterable[int],
    before: Mapping[str, Pair],
    after: Mapping[str, PlayerState],
) -> RunRecord:
    """Record a run: ``after`` holds the final states the run wrote (every player's in a full
    run); a player of ``before`` missing from a full run's ``after`` lost his rating."""
    changes: list[tuple[int, Pair, Pair]] = []
    for pid, state in after.items():
        old, new = before.get(pid, (None, None)), _pair(state.rating, state.index)
        if old != new:
            changes.append((int(pid), old, new))
    if from_scratch:
        changes += [(int(pid), old, (None, None)) for pid, old in before.items() if pid not in after and old[0]]
    deltas = [new[0] - old[0] for _, old, new in changes if old[0] is not None and new[0] is not None]
    ids = sorted(set(tournaments))
    run = RunRecord(
        # to the microsecond on both databases (SQLite's CURRENT_TIMESTAMP, the column's default,
        # keeps seconds only): a tournament's history orders its runs among its recorded changes
        finished_at=datetime.now(UTC),
        generation=generation,
        from_scratch=from_scratch,
        tournaments=len(ids),
        moved=len(changes),
        largest_change=max(deltas, key=abs) if deltas else None,
    )
    session.add(run)
    session.flush()
    # COPY: a from-scratch run names every tournament and moves most of a federation
    copy_rows(session, RunTournament.__table__, ("run_id", "tournament_id"), ((run.id, t) for t in ids))  # type: ignore[arg-type]
    copy_rows(
        session,
        RunChange.__table__,  # type: ignore[arg-type]
        ("run_id", "player_pkz", "old_rating", "old_index", "new_rating", "new_index"),
        ((run.id, pkz, *old, *new) for pkz, old, new in changes),
    )
    # the subscribers hear of it once the run commits (zdb.notifications.fanout): one small message a run
    enqueue(session, "rating.run", {"run": run.id})
    return run
