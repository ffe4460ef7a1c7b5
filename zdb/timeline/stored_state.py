"""The stored state of a player on the time line: how a state (rating, index, leftover games)
is kept in columns and read back, the initial states and start ratings, and a player's stored
state just before a position. Read by the recalculation, the previews and the list imports; the
encoding is one, so that a state written by one is read alike by all."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from functools import lru_cache
from typing import Any

from sqlalchemy import literal, select, true, tuple_
from sqlalchemy.orm import Session

from zdb.bulk import keys_table, stream_rows
from zdb.db import is_postgres
from zdb.rating import EMPTY_STATE, LeftoverGame, OrderKey, PlayerId, PlayerState, StartRating
from zdb.timeline.models import HistoryRow, InitialState, StartRatingRow

__all__ = [
    "decode_leftover",
    "encode_leftover",
    "load_initial_states",
    "load_start_ratings",
    "state_before",
    "state_from_columns",
    "states_before",
]

# The history's order key (spec §2): its primary key, so "before a position" is a range scan.
_KEY = (HistoryRow.event_date, HistoryRow.event_phase, HistoryRow.event_text, HistoryRow.event_id)


def encode_leftover(games: Sequence[LeftoverGame]) -> list[list[Any]] | None:
    if not games:
        return None
    return [[g.tournament, g.end_date.isoformat(), g.opp_rating, g.points, g.opp_fide] for g in games]


def decode_leftover(value: list[list[Any]] | None) -> tuple[LeftoverGame, ...]:
    if not value:
        return ()
    return tuple(LeftoverGame(int(t), date.fromisoformat(d), int(r), float(p), bool(f)) for t, d, r, p, f in value)


def state_from_columns(rating: int | None, index: int, leftover: list[list[Any]] | None) -> PlayerState:
    if not leftover:
        return _plain_state(rating, index)
    return PlayerState(rating, index, decode_leftover(leftover))


@lru_cache(maxsize=1 << 16)
def _plain_state(rating: int | None, index: int) -> PlayerState:
    """States without leftover games are few distinct values read many times over: shared
    (they are immutable and compared by value)."""
    if rating is None and index == 0:
        return EMPTY_STATE
    return PlayerState(rating, index)


def load_initial_states(session: Session) -> dict[PlayerId, PlayerState]:
    i = InitialState
    rows = stream_rows(session, select(i.player_pkz, i.rating, i.rating_index, i.leftover))
    return {str(pkz): state_from_columns(rating, index, leftover) for pkz, rating, index, leftover in rows}


def load_start_ratings(session: Session, pending_only: bool = False) -> list[StartRating]:
    s = StartRatingRow
    query = select(s.player_pkz, s.rating_date, s.rating, s.rating_index)
    if pending_only:
        query = query.where(s.evaluated.is_(False))
    return [StartRating(str(r.player_pkz), r.rating_date, r.rating, r.rating_index) for r in session.execute(query)]


def state_before(
    session: Session,
    initial: Mapping[PlayerId, PlayerState] | None,
    pid: PlayerId,
    key: OrderKey,
    *,
    skip_tournament: int | None = None,
) -> PlayerState:
    """A player's stored state just before ``key``: after his last event before it, or his
    initial state (from ``initial``, or read for him alone when it is None). ``skip_tournament``:
    that tournament's stored evaluation is passed over (a correction's preview replaces it)."""
    h = HistoryRow
    condition = (h.player_pkz == int(pid)) & (tuple_(*_KEY) < key)
    if skip_tournament is not None:
        condition &= ~((h.event_phase == 1) & (h.event_id == skip_tournament))
    row = session.execute(
        select(h.new_rating, h.new_index, h.new_leftover)
        .where(condition)
        .order_by(h.event_date.desc(), h.event_phase.desc(), h.event_text.desc(), h.event_id.desc())
        .limit(1)
    ).first()
    if row is not None:
        return state_from_columns(row.new_rating, row.new_index, row.new_leftover)
    if initial is not None:
        return initial.get(pid, EMPTY_STATE)
    i = InitialState
    start = session.execute(select(i.rating, i.rating_index, i.leftover).where(i.player_pkz == int(pid))).first()
    return EMPTY_STATE if start is None else state_from_columns(start.rating, start.rating_index, start.leftover)


def states_before(
    session: Session, wanted: Sequence[tuple[PlayerId, OrderKey]]
) -> dict[tuple[PlayerId, OrderKey], PlayerState]:
    """Each player's stored state just before a position (``state_before`` for every pair,
    answered alike). PostgreSQL: one statement, the pairs sent as arrays, each one index look-up
    of his last history row before the position, or his initial state; elsewhere one statement
    per pair."""
    pairs = list(dict.fromkeys(wanted))
    if not is_postgres(session):
        return {(pid, key): state_before(session, None, pid, key) for pid, key in pairs}
    found: dict[tuple[PlayerId, OrderKey], PlayerState] = {}
    if not pairs:
        return found
    h, i = HistoryRow, InitialState
    table = h.__table__
    columns = [table.c[name] for name in ("player_pkz", "event_date", "event_phase", "event_text", "event_id")]
    chosen = keys_table(columns, [(int(pid), *key) for pid, key in pairs])
    at = (chosen.c.event_date, chosen.c.event_phase, chosen.c.event_text, chosen.c.event_id)
    last = (
        select(h.new_rating, h.new_index, h.new_leftover, literal(True).label("found"))
        .where(h.player_pkz == chosen.c.player_pkz, tuple_(*_KEY) < tuple_(*at))
        .order_by(h.event_date.desc(), h.event_phase.desc(), h.event_text.desc(), h.event_id.desc())
        .limit(1)
        .lateral()
    )
    query = (
        select(
            chosen.c.player_pkz,
            *at,
            last.c.found,
            last.c.new_rating,
            last.c.new_index,
            last.c.new_leftover,
            i.rating,
            i.rating_index,
            i.leftover,
        )
        .select_from(chosen)
        .outerjoin(last, true())
        .outerjoin(i, i.player_pkz == chosen.c.player_pkz)
    )
    for pkz, day, phase, text, ident, had, rating, index, leftover, start, start_index, start_leftover in stream_rows(
        session, query, server_side=False
    ):
        if had:
            state = state_from_columns(rating, index, leftover)
        elif start_index is not None:
            state = state_from_columns(start, start_index, start_leftover)
        else:
            state = EMPTY_STATE
        found[(str(pkz), (day, phase, text, ident))] = state
    return found
