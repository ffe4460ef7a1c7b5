"""All SQL of the stored ratings: reading the snapshot the engine needs, writing its results.

Player ids in the engine are person numbers as text; the history's primary key is the order
key of spec §2, so the stored steps from a position on are one ordered range scan.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import delete, select, tuple_, update
from sqlalchemy.orm import Session

from zdb.bulk import copy_rows
from zdb.rating import (
    CONVERSIONS,
    EMPTY_STATE,
    Event,
    LeftoverGame,
    OrderKey,
    PlayerId,
    PlayerState,
    ReportRow,
    StartRating,
    Step,
    Tournament,
    order_key,
)
from zdb.ratings.models import Evaluation, HistoryRow, InitialState, PlayerRating, StartRatingRow

__all__ = [
    "DbStep",
    "decode_leftover",
    "delete_all_results",
    "delete_evaluations",
    "delete_history_at",
    "encode_leftover",
    "evaluation_rows",
    "history_rows",
    "insert_evaluations",
    "insert_history",
    "iter_stored_steps",
    "load_initial_states",
    "load_start_ratings",
    "state_before",
    "state_from_columns",
    "write_current_ratings",
]

_CONVERSIONS = {conversion.name: conversion for conversion in CONVERSIONS}
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
    if rating is None and index == 0 and not leftover:
        return EMPTY_STATE
    return PlayerState(rating, index, decode_leftover(leftover))


def load_initial_states(session: Session) -> dict[PlayerId, PlayerState]:
    rows = session.execute(
        select(InitialState.player_pkz, InitialState.rating, InitialState.rating_index, InitialState.leftover)
    )
    return {str(r.player_pkz): state_from_columns(r.rating, r.rating_index, r.leftover) for r in rows}


def load_start_ratings(session: Session, pending_only: bool = False) -> list[StartRating]:
    s = StartRatingRow
    query = select(s.player_pkz, s.rating_date, s.rating, s.rating_index)
    if pending_only:
        query = query.where(s.evaluated.is_(False))
    return [StartRating(str(r.player_pkz), r.rating_date, r.rating, r.rating_index) for r in session.execute(query)]


@dataclass(slots=True)
class DbStep:
    """A stored step read back from the history: states before and after per player; the
    event itself is loaded only if the incremental replay asks for it (re-evaluation)."""

    key: OrderKey
    inputs: dict[PlayerId, PlayerState] = field(default_factory=dict)
    outputs: dict[PlayerId, PlayerState] = field(default_factory=dict)
    tournament_version: int | None = None
    loader: Callable[[int, int], Tournament] | None = None
    _event: Event | None = None

    @property
    def event(self) -> Event:
        if self._event is None:
            day, phase, text, ident = self.key
            if phase == 1:
                assert self.loader is not None and self.tournament_version is not None
                self._event = self.loader(ident, self.tournament_version)
            elif phase == 2:
                self._event = _CONVERSIONS[text]
            else:
                (after,) = self.outputs.values()
                assert after.rating is not None
                self._event = StartRating(text, day, after.rating, after.index)
        return self._event


def iter_stored_steps(
    session: Session, start: OrderKey, loader: Callable[[int, int], Tournament], batch: int = 20_000
) -> Iterator[DbStep]:
    """The stored steps from ``start`` on, in order, streamed from the history. A conversion is
    a step even where it converted nobody (it has no history rows then)."""
    conversions = sorted(order_key(c) for c in CONVERSIONS if order_key(c) >= start)
    for step in _history_steps(session, start, loader, batch):
        while conversions and conversions[0] < step.key:
            yield DbStep(conversions.pop(0))
        if conversions and conversions[0] == step.key:
            conversions.pop(0)
        yield step
    for key in conversions:
        yield DbStep(key)


def _history_steps(
    session: Session, start: OrderKey, loader: Callable[[int, int], Tournament], batch: int
) -> Iterator[DbStep]:
    h = HistoryRow
    query = (
        select(*_KEY, h.player_pkz, h.tournament_version, h.old_rating, h.old_index, h.old_leftover,
               h.new_rating, h.new_index, h.new_leftover)
        .where(tuple_(*_KEY) >= start)
        .order_by(*_KEY, h.player_pkz)
        .execution_options(yield_per=batch)
    )  # fmt: skip
    step: DbStep | None = None
    for row in session.execute(query):
        key = (row.event_date, row.event_phase, row.event_text, row.event_id)
        if step is None or step.key != key:
            if step is not None:
                yield step
            step = DbStep(key, tournament_version=row.tournament_version, loader=loader)
        pid = str(row.player_pkz)
        step.inputs[pid] = state_from_columns(row.old_rating, row.old_index, row.old_leftover)
        step.outputs[pid] = state_from_columns(row.new_rating, row.new_index, row.new_leftover)
    if step is not None:
        yield step


def state_before(
    session: Session, initial: Mapping[PlayerId, PlayerState], pid: PlayerId, key: OrderKey
) -> PlayerState:
    """A player's stored state just before ``key``: after his last event before it."""
    h = HistoryRow
    row = session.execute(
        select(h.new_rating, h.new_index, h.new_leftover)
        .where(h.player_pkz == int(pid), tuple_(*_KEY) < key)
        .order_by(h.event_date.desc(), h.event_phase.desc(), h.event_text.desc(), h.event_id.desc())
        .limit(1)
    ).first()
    if row is None:
        return initial.get(pid, EMPTY_STATE)
    return state_from_columns(row.new_rating, row.new_index, row.new_leftover)


_HISTORY_COLUMNS = (
    "event_date",
    "event_phase",
    "event_text",
    "event_id",
    "player_pkz",
    "tournament_id",
    "tournament_version",
    "old_rating",
    "old_index",
    "old_leftover",
    "new_rating",
    "new_index",
    "new_leftover",
    "evaluated",
)


def history_rows(step: Step, version: int | None) -> Iterator[tuple[Any, ...]]:
    day, phase, text, ident = step.key
    stored = {row.pid: row.stored for row in step.evaluation.rows} if step.evaluation is not None else {}
    tournament_id = ident if isinstance(step.event, Tournament) else None
    for pid, old in step.inputs.items():
        new = step.outputs[pid]
        yield (
            day,
            phase,
            text,
            ident,
            int(pid),
            tournament_id,
            version,
            old.rating,
            old.index,
            encode_leftover(old.leftover),
            new.rating,
            new.index,
            encode_leftover(new.leftover),
            stored.get(pid) if tournament_id is not None else None,
        )


def insert_history(session: Session, steps: Iterable[tuple[Step, int | None]]) -> int:
    rows = (row for step, version in steps for row in history_rows(step, version))
    return copy_rows(session, HistoryRow.__table__, _HISTORY_COLUMNS, rows)  # type: ignore[arg-type]


_EVALUATION_COLUMNS = (
    "tournament_id",
    "version",
    "player_pkz",
    "position",
    "rule_set",
    "member",
    "stage",
    "fide_start",
    "r0",
    "i0",
    "w",
    "n",
    "unrated_games",
    "we",
    "e",
    "k",
    "rh",
    "sonder",
    "rn",
    "i_new",
    "stored",
    "leftover_used",
    "leftover_stored",
)


def evaluation_rows(
    tournament_id: int, version: int, rule_set: str, rows: Sequence[ReportRow]
) -> Iterator[tuple[Any, ...]]:
    for position, r in enumerate(rows):
        yield (
            tournament_id,
            version,
            int(r.pid),
            position,
            rule_set,
            r.member,
            r.stage.value,
            r.fide_start,
            r.r0,
            r.i0,
            r.w,
            r.n,
            r.unrated_games,
            r.we,
            r.e,
            r.k,
            r.rh,
            r.sonder,
            r.rn,
            r.i_new,
            r.stored,
            r.leftover_used,
            r.leftover_stored,
        )


def insert_evaluations(session: Session, evaluations: Iterable[tuple[Step, int]]) -> int:
    def rows() -> Iterator[tuple[Any, ...]]:
        for step, version in evaluations:
            assert step.evaluation is not None and isinstance(step.event, Tournament)
            yield from evaluation_rows(step.event.id, version, step.evaluation.rule_set, step.evaluation.rows)

    return copy_rows(session, Evaluation.__table__, _EVALUATION_COLUMNS, rows())  # type: ignore[arg-type]


def delete_history_at(session: Session, keys: Iterable[OrderKey], players: Iterable[int] | None = None) -> None:
    """Delete the history rows of whole steps, or of some players at one step."""
    wanted = list(keys)
    chosen = None if players is None else list(players)
    for start in range(0, len(wanted), 1000):
        statement = delete(HistoryRow).where(tuple_(*_KEY).in_(wanted[start : start + 1000]))
        if chosen is not None:
            statement = statement.where(HistoryRow.player_pkz.in_(chosen))
        session.execute(statement)


def delete_evaluations(session: Session, tournament_ids: Iterable[int]) -> None:
    ids = list(set(tournament_ids))
    for start in range(0, len(ids), 5000):
        session.execute(delete(Evaluation).where(Evaluation.tournament_id.in_(ids[start : start + 5000])))


def delete_all_results(session: Session) -> None:
    for model in (HistoryRow, Evaluation, PlayerRating):
        session.execute(delete(model))
    session.execute(update(StartRatingRow).values(evaluated=False))


_RATING_COLUMNS = ("player_pkz", "rating", "rating_index", "leftover")


def write_current_ratings(session: Session, states: Mapping[PlayerId, PlayerState]) -> None:
    """Replace the current state of the given players (the final states of the time line)."""
    pids = [int(pid) for pid in states]
    for start in range(0, len(pids), 5000):
        session.execute(delete(PlayerRating).where(PlayerRating.player_pkz.in_(pids[start : start + 5000])))
    rows = ((int(pid), s.rating, s.index, encode_leftover(s.leftover)) for pid, s in states.items() if s != EMPTY_STATE)
    copy_rows(session, PlayerRating.__table__, _RATING_COLUMNS, rows)  # type: ignore[arg-type]
