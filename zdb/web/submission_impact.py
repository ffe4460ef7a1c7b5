"""What a referee's own submission moved, for his follow page: the last run that evaluated the
tournament and the largest of its changes (a late tournament moves more than its own players)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from zdb.errors import NotFoundError
from zdb.ratings.impact_queries import RunChangeOut, RunOut, run_changes, tournament_impact

__all__ = ["LARGEST_SHOWN", "submission_impact"]

#: the follow page lists this many changes, largest first; the API pages through all of them
LARGEST_SHOWN = 10


def submission_impact(session: Session, tournament_id: int) -> tuple[RunOut | None, list[RunChangeOut]]:
    """The run and its largest changes; ``(None, [])`` while the tournament waits for its evaluation."""
    try:
        run = tournament_impact(session, tournament_id)
    except NotFoundError:
        return None, []
    changes, _ = run_changes(session, run.id, limit=LARGEST_SHOWN, offset=0)
    return run, changes
