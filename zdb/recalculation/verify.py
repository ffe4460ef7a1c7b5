"""``zdb verify``: recompute the whole time line and compare it with every stored figure:
evaluation rows, history rows, current states. Pending changes count as differences: until they
are recalculated the database does not equal the from-scratch evaluation.

The comparison walks the time line as a from-scratch run does (``windows``): tournaments are
read a window at a time and each step is compared as it comes, so memory stays flat in the
number of years. The stored history is read in its primary key's order, which is the time
line's order (spec §2: end date, phase, text, id; the text in code point order, migration
0004), and merged with the steps; the stored report rows are read for each ``_CHUNK`` of
tournaments. What is stored but belongs to no step (a history row between two events, a report
of a tournament no longer on the time line) is found on the way.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.bulk import stream_rows
from zdb.rating import CONVERSIONS, EMPTY_STATE, Event, PlayerState, Step, Tournament, replay_steps
from zdb.recalculation import store, windows
from zdb.timeline import stored_state
from zdb.timeline.models import Evaluation, HistoryRow, PlayerRating
from zdb.tournaments import pending_versions

__all__ = ["verify"]

#: tournaments whose stored report rows are read together
_CHUNK = 500

_H = HistoryRow
_HISTORY = select(
    _H.event_date,
    _H.event_phase,
    _H.event_text,
    _H.event_id,
    _H.player_pkz,
    _H.tournament_id,
    _H.tournament_version,
    _H.old_rating,
    _H.old_index,
    _H.old_leftover,
    _H.new_rating,
    _H.new_index,
    _H.new_leftover,
    _H.evaluated,
).order_by(_H.event_date, _H.event_phase, _H.event_text, _H.event_id, _H.player_pkz)


class _Differences:
    """The differences found, per kind, each kind in the order of its keys."""

    def __init__(self) -> None:
        self.found: dict[str, list[tuple[str, str]]] = {"history": [], "evaluation": [], "current": []}

    def compare(self, kind: str, expected: dict[Any, Any], stored: dict[Any, Any]) -> None:
        for key in expected.keys() | stored.keys():
            want, have = expected.get(key), stored.get(key)
            if want == have:
                continue
            if want is None:
                text = f"{kind} {key}: stored but not expected: {have}"
            elif have is None:
                text = f"{kind} {key}: missing, expected {want}"
            else:
                text = f"{kind} {key}: stored {have}, expected {want}"
            self.found[kind].append((repr(key), text))

    def texts(self) -> list[str]:
        return [text for kind in self.found.values() for _, text in sorted(kind)]


class _StoredHistory:
    """The stored history rows in the time line's order, taken event by event."""

    def __init__(self, session: Session) -> None:
        self._rows = stream_rows(session, _HISTORY)
        self._next: tuple[Any, ...] | None = next(self._rows, None)

    def before(self, event: tuple[Any, ...] | None) -> dict[Any, tuple[Any, ...]]:
        """The rows of events before ``event`` (every row left when None), by their key."""
        rows = {}
        while self._next is not None and (event is None or self._next[:4] < event):
            rows[self._next[:5]] = self._next[5:]
            self._next = next(self._rows, None)
        return rows

    def at(self, event: tuple[Any, ...]) -> dict[Any, tuple[Any, ...]]:
        """The rows of ``event``, by their key."""
        rows = {}
        while self._next is not None and self._next[:4] == event:
            rows[self._next[:5]] = self._next[5:]
            self._next = next(self._rows, None)
        return rows


def _steps(session: Session, initial: dict[str, PlayerState], versions: dict[int, int]) -> Iterator[Step]:
    heads = windows.load_heads(session)
    versions.update({key[3]: version for key, version in heads})
    others: list[Event] = [*stored_state.load_start_ratings(session), *CONVERSIONS]
    return replay_steps(initial, windows.windowed_timeline(session, heads, others))


def _compare_reports(session: Session, steps: list[tuple[Step, int]], differences: _Differences) -> None:
    stored = store.stored_evaluations(session, [(step.key[3], version) for step, version in steps])
    for step, version in steps:
        assert step.evaluation is not None
        tid = step.key[3]
        rows = store.evaluation_rows(tid, version, step.evaluation.rule_set, step.evaluation.rows)
        expected = {row[:3]: row[3:] for row in rows}
        have = {(tid, version, pkz): values for pkz, values in stored[(tid, version)].items()}
        differences.compare("evaluation", expected, have)


def _compare_steps(session: Session, differences: _Differences) -> dict[str, PlayerState]:
    """Every step against the stored history and reports; the final states."""
    versions: dict[int, int] = {}
    history = _StoredHistory(session)
    initial = stored_state.load_initial_states(session)
    final = dict(initial)
    reported: list[tuple[Step, int]] = []
    evaluated: set[tuple[int, int]] = set()
    for step in _steps(session, initial, versions):
        final.update(step.outputs)
        version = versions[step.key[3]] if isinstance(step.event, Tournament) else None
        differences.compare("history", {}, history.before(step.key))
        expected = {(*row[:4], row[4]): row[5:] for row in store.history_rows(step, version)}
        differences.compare("history", expected, history.at(step.key))
        if step.evaluation is not None:
            assert version is not None
            reported.append((step, version))
            evaluated.add((step.key[3], version))
            if len(reported) == _CHUNK:
                _compare_reports(session, reported, differences)
                reported = []
    _compare_reports(session, reported, differences)
    differences.compare("history", {}, history.before(None))
    # Reports of tournaments (or versions) the time line no longer holds.
    e = Evaluation
    pairs = session.execute(select(e.tournament_id, e.version).distinct()).all()
    strays = store.stored_evaluations(session, [(tid, v) for tid, v in pairs if (tid, v) not in evaluated])
    for (tid, version), rows in strays.items():
        differences.compare("evaluation", {}, {(tid, version, pkz): values for pkz, values in rows.items()})
    return final


def verify(session: Session) -> list[str]:
    """Every difference between the stored results and a from-scratch evaluation."""
    pending = [
        f"tournament {p.id}: {'withdrawal' if p.withdrawn else f'version {p.current_version}'} not yet recalculated"
        for p in pending_versions.pending_tournaments(session)
    ]
    pending += [
        f"start rating of {s.pid} on {s.date}: not yet recalculated"
        for s in stored_state.load_start_ratings(session, True)
    ]
    differences = _Differences()
    final = _compare_steps(session, differences)
    current = {
        int(pid): (s.rating, s.index, stored_state.encode_leftover(s.leftover))
        for pid, s in final.items()
        if s != EMPTY_STATE
    }
    r = PlayerRating
    stored = {
        row[0]: row[1:] for row in stream_rows(session, select(r.player_pkz, r.rating, r.rating_index, r.leftover))
    }
    differences.compare("current", current, stored)
    return pending + differences.texts()
