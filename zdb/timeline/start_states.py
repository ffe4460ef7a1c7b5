"""Use cases on ratings outside tournaments: initial states (an imported list) and start
ratings set by federation staff (spec §2). Flushes, never commits."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from sqlalchemy import delete
from sqlalchemy.orm import Session

from zdb.bulk import copy_rows, in_chunks
from zdb.rating import PlayerState
from zdb.timeline.dirty import mark_dirty
from zdb.timeline.models import InitialState, StartRatingRow
from zdb.timeline.stored_state import encode_leftover

__all__ = ["set_initial_states", "set_start_rating"]


def set_initial_states(session: Session, states: Mapping[int, PlayerState]) -> None:
    """The states before the first event of the time line; everything after depends on them,
    so the whole time line is dirty."""
    if not states:
        return
    for chunk in in_chunks(states):
        session.execute(delete(InitialState).where(InitialState.player_pkz.in_(chunk)))
    rows = ((pkz, s.rating, s.index, encode_leftover(s.leftover)) for pkz, s in states.items())
    copy_rows(session, InitialState.__table__, ("player_pkz", "rating", "rating_index", "leftover"), rows)  # type: ignore[arg-type]
    mark_dirty(session, [(date.min, 0, "", 0)])


def set_start_rating(session: Session, pkz: int, on: date, rating: int, index: int, *, by: str) -> None:
    existing = session.get(StartRatingRow, (pkz, on))
    if existing is None:
        session.add(StartRatingRow(player_pkz=pkz, rating_date=on, rating=rating, rating_index=index, set_by=by))
    else:
        existing.rating, existing.rating_index, existing.evaluated, existing.set_by = rating, index, False, by
    session.flush()
    mark_dirty(session, [(on, 0, str(pkz), 0)])
