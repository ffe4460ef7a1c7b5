"""The stored history from a position on, read once: the states before it and the rows to compare.

A late change replayed in the compiled pass (``compiled_tail``) needs two things of the stored
tail of the time line: every player's state just before the first change, and every stored row
the new steps are compared with. One ordered range scan of the history's primary key gives both:
a player's first row in the tail holds his state before it (the stored time line up to the first
change is the new one), and the rows themselves are what the comparison reads. A conversion's
rows (every rated player's) are left out of the scan and read only for the players compared at
it (``add_conversion_rows``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from types import MappingProxyType
from typing import Any

from sqlalchemy import and_, literal_column, select, text, tuple_
from sqlalchemy.orm import Session

from zdb.bulk import keys_table, stream_rows
from zdb.rating import OrderKey, PlayerId, PlayerState, Step
from zdb.recalculation.store import STORED_ROW, row_holds, stored_evaluations
from zdb.timeline.models import HistoryRow
from zdb.timeline.stored_state import state_from_columns

__all__ = ["StoredTail", "delete_stored", "read_stored_tail", "stored_reports"]

_KEY = (HistoryRow.event_date, HistoryRow.event_phase, HistoryRow.event_text, HistoryRow.event_id)
_COLUMNS: tuple[Any, ...] = (*STORED_ROW, literal_column("rating_history.ctid::text"))
#: a stored row as read (``_COLUMNS``): its key, person number, version, old rating, index,
#: leftover, new rating, index, leftover, evaluated, and where it is stored (``delete_stored``)
Row = tuple[Any, ...]
_VERSION, _OLD, _NEW, _FLAG, _AT = 5, 6, 9, 12, 13
#: the order key's phase of a conversion (``zdb.rating.timeline.order_key``)
_CONVERSION_PHASE = 2


class StoredTail:
    """The stored history rows from a position on, by step and player."""

    def __init__(self, conversions: Iterable[OrderKey] = ()) -> None:
        self._rows: dict[OrderKey, dict[PlayerId, Row]] = {}
        #: stored steps with rows, conversions included (whose rows are read only when asked for)
        self._keys: set[OrderKey] = set(conversions)
        self._first: dict[PlayerId, Row] = {}
        self._last: dict[PlayerId, Row] = {}

    def add_rows(self, rows: Iterable[Row]) -> None:
        """History rows as ``_COLUMNS`` reads them, in the order of their keys."""
        steps, first, last = self._rows, self._first, self._last
        key: OrderKey | None = None
        players: dict[PlayerId, Row] = {}
        for row in rows:
            if key is None or row[3] != key[3] or row[2] != key[2] or row[1] != key[1] or row[0] != key[0]:
                key = (row[0], row[1], row[2], row[3])
                players = steps.setdefault(key, {})
                self._keys.add(key)
            pid = str(row[4])
            players[pid] = row
            if pid not in first:
                first[pid] = row
            last[pid] = row

    @property
    def step_keys(self) -> AbstractSet[OrderKey]:
        """The keys of the stored steps with rows."""
        return self._keys

    def first_rows(self) -> Mapping[PlayerId, Row]:
        """Each player's first row in the tail (a conversion's not counted)."""
        return self._first

    def add_conversion_rows(self, session: Session, key: OrderKey, pids: Sequence[PlayerId]) -> None:
        """Read the stored rows of ``pids`` at conversion ``key`` (those that have one)."""
        if not pids or key not in self._keys:
            return
        h = HistoryRow.__table__
        columns = [h.c[name] for name in ("event_date", "event_phase", "event_text", "event_id", "player_pkz")]
        chosen = keys_table(columns, [(*key, int(pid)) for pid in pids])
        query = select(*_COLUMNS).join(chosen, and_(*(c == chosen.c[c.key] for c in columns)))
        players = self._rows.setdefault(key, {})
        for row in stream_rows(session, query, server_side=False):
            pid = str(row[4])
            players[pid] = row
            last = self._last.get(pid)
            if last is None or tuple(last[:4]) < key:
                self._last[pid] = row

    def players(self, key: OrderKey) -> Mapping[PlayerId, Row]:
        """The stored rows of step ``key`` by player (none if it has none)."""
        return self._rows.get(key, _NONE)

    def places(self, key: OrderKey, pids: Iterable[PlayerId]) -> list[str]:
        """Where the stored rows of ``pids`` at step ``key`` are (those that have one)."""
        stored = self._rows.get(key, _NONE)
        return [stored[pid][_AT] for pid in pids if pid in stored]

    def state_before(self, key: OrderKey, pid: PlayerId) -> PlayerState:
        """``pid``'s stored state before step ``key`` (a player of it)."""
        row = self._rows[key][pid]
        return state_from_columns(row[_OLD], row[_OLD + 1], row[_OLD + 2])

    def state_after_last(self, pid: PlayerId) -> PlayerState | None:
        """``pid``'s state after his last stored row in the tail (his stored current state; None:
        he has none)."""
        row = self._last.get(pid)
        return None if row is None else state_from_columns(row[_NEW], row[_NEW + 1], row[_NEW + 2])

    def compare_step(
        self, step: Step, version: int | None, among: Iterable[PlayerId] | None = None
    ) -> tuple[set[PlayerId], list[PlayerId]]:
        """The players of ``step`` (or of ``among``) whose history row is not stored as it would
        be written now (``store.history_rows``), and those with a stored row the step no longer
        has."""
        stored = self._rows.get(step.key, _NONE)
        inputs, outputs = step.inputs, step.outputs
        flags = _flags(step)
        differing: set[PlayerId] = set()
        gone: list[PlayerId] = []
        for pid in inputs if among is None else among:
            old = inputs.get(pid)
            if old is None:
                if pid in stored:
                    gone.append(pid)
                continue
            had = stored.get(pid)
            if had is None or had[_VERSION] != version or not row_holds(had, old, outputs[pid], flags.get(pid)):
                differing.add(pid)
        if among is None:
            gone += [pid for pid in stored if pid not in inputs]
        return differing, gone


_NONE: Mapping[PlayerId, Row] = MappingProxyType({})


def _flags(step: Step) -> dict[PlayerId, bool]:
    """Each participant's ``evaluated`` flag of a tournament step (whether his state was
    written), read from the report's columns where it has them."""
    evaluation = step.evaluation
    if evaluation is None:
        return {}
    columns = evaluation.columns
    if columns is None:
        return {row.pid: row.stored for row in evaluation.rows}
    a, b = evaluation.span
    return dict(zip(columns.pids[a:b], columns.stored[a:b].tolist(), strict=True))


def read_stored_tail(session: Session, first: OrderKey, conversions: Sequence[OrderKey]) -> StoredTail:
    """The stored history rows from ``first`` on but the ``conversions``' (the tail's), in one
    ordered range scan of the primary key."""
    stored_conversions = [
        key
        for key in conversions
        if session.execute(select(HistoryRow.player_pkz).where(tuple_(*_KEY) == key).limit(1)).first() is not None
    ]
    tail = StoredTail(stored_conversions)
    # A conversion's rows (every rated player's, 85,000 at scale 1) are read only for the players
    # compared there (``add_conversion_rows``).
    query = select(*_COLUMNS).where(tuple_(*_KEY) >= first, HistoryRow.event_phase != _CONVERSION_PHASE)
    tail.add_rows(stream_rows(session, query.order_by(*_KEY)))
    return tail


def stored_reports(
    session: Session, versions: Sequence[tuple[int, int]]
) -> dict[tuple[int, int], dict[int, tuple[Any, ...]]]:
    """The stored report rows of the (tournament id, version) pairs, per person number, as
    ``store.stored_evaluations`` gives them and where each is stored (its last value)."""
    return stored_evaluations(session, versions, places=True)


def delete_stored(session: Session, table: str, places: Sequence[str]) -> None:
    """Delete the rows of ``table`` (the history or the evaluations) stored at ``places``, read
    earlier in this transaction: one scan of exactly those tuples. Sound because only the
    recalculation, under its lock, inserts into these tables, and it inserts after deleting: a
    place read is the row read, or a row deleted since (by a merge), never another row.
    (By key, a few thousand single rows were planned as a hash join over the whole table or
    through the players' index: 0.2-0.5 s at scale 0.1, where their places take 8 ms.)"""
    if places:
        session.execute(text(f"DELETE FROM {table} WHERE ctid = ANY(CAST(:places AS tid[]))"), {"places": list(places)})
