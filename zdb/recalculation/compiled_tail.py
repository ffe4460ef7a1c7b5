"""A late change replayed from states: the tail of the time line through the compiled pass.

The incremental walk (``stored_walk`` driving ``zdb.rating.replay_incremental``) applies the
stored steps again one by one in Python and keeps a map of ``PlayerState`` for every player it
meets. On PostgreSQL with the compiled pass (numba installed, ``ZDB_COMPILED_KERNEL`` not off)
this module replaces it where the tail is short: the whole tail from the first change on is
replayed in the pass, which evaluates a year of a federation of 100,000 players (about 2,300
tournaments) in less time than the walk spends deciding which to evaluate. A longer tail is
walked (``MAX_TAIL_TOURNAMENTS``): the pass's cost grows with the whole tail, the walk's only with
what the change reaches.

1. The stored history rows of the tail are read in one statement (``stored_tail``; a
   conversion's only for the players compared there). They serve twice: a player's first stored
   row in the tail holds his state just before it (nothing of his changed before it: the stored
   time line up to there is the new one), and every row is what the new steps are compared
   with. The players of changed events are read with ``states_before`` in one more; a player
   first met after a conversion joins the pass there (``initial_states``).
2. Meanwhile the tail's tournaments are read on a second connection as the full run reads them
   (``read_ahead``), with the start ratings and conversions from the first change on.
3. The tail is replayed from those states by ``zdb.compiled_replay.compiled_steps``, a
   conversion in the pass too.
4. The new steps are compared with the stored rows only where a player's state may differ, as
   the incremental replay decides (``write_differences``): steps at changed keys are written
   whole, keys no longer on the time line deleted, and of the other steps only the history rows
   that differ are deleted and written again. A stored tournament counts as evaluated anew only
   where a history row of it differs (one whose participants' states before it are the stored
   ones reports as stored: its evaluation reads nothing else), and only its report rows are read
   and compared. The rows that differ are deleted where they are stored
   (``stored_tail.delete_stored``), the new ones copied.

The walk stays as the reference and as the path on SQLite and without numba; the tests hold
both to the from-scratch evaluation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter

from sqlalchemy.orm import Session

from zdb.compiled_replay.driver import compiled_steps
from zdb.db import is_postgres
from zdb.rating import CONVERSIONS, EMPTY_STATE, Event, OrderKey, PlayerId, PlayerState, Step, order_key
from zdb.rating.kernel import compiled as kernel_compiled
from zdb.recalculation import store, windows
from zdb.recalculation.read_ahead import WindowReader
from zdb.recalculation.stored_tail import StoredTail, delete_stored, read_stored_tail, stored_reports
from zdb.timeline import stored_state
from zdb.timeline.models import Evaluation, HistoryRow
from zdb.timeline.stored_state import state_from_columns

__all__ = ["MAX_TAIL_TOURNAMENTS", "TailResult", "available", "replay_tail", "tail_heads"]

#: The longest tail (tournaments from the first change on) replayed in the pass; a longer one is
#: walked. Measured on one machine: a late weekend open 12 months back was replayed 1.5 × and
#: 1.2 × faster than walked with about 230 and 2,300 tournaments in the tail (scales 0.1 and 1,
#: ``benchmarks/revisions.py``), but with 22,951 (scale 10) its withdrawal took 20.8 s and
#: 2,691 MB in the pass against 9.0 s and 711 MB walked. Between those, by their figures, the
#: two cost the same near 4,000.
MAX_TAIL_TOURNAMENTS = 4_000

#: the order key's phase of a conversion (``zdb.rating.timeline.order_key``)
_CONVERSION_PHASE = 2


@dataclass(frozen=True, slots=True)
class TailResult:
    evaluated: int  # tournaments whose report was evaluated anew (changed, or a participant's state did)
    final_states: Mapping[PlayerId, PlayerState]  # players whose current state changed
    removed: int  # events that left the time line
    touched_tournaments: list[int]  # tournaments rewritten whole or removed


def available(session: Session) -> bool:
    """Whether a late change goes through the pass: PostgreSQL, and the compiled kernel in use."""
    return is_postgres(session) and kernel_compiled() is not None


def tail_heads(session: Session, first: OrderKey) -> list[windows.Head] | None:
    """The tournaments of the tail from ``first`` on, or ``None`` when there are more than
    ``MAX_TAIL_TOURNAMENTS`` of them: that tail is walked."""
    heads = [head for head in windows.load_heads(session, since=first[0]) if head[0] >= first]
    return heads if len(heads) <= MAX_TAIL_TOURNAMENTS else None


def replay_tail(
    session: Session,
    first: OrderKey,
    changes: Mapping[OrderKey, Event | None],
    participants: Sequence[tuple[PlayerId, OrderKey]],
    heads: Sequence[windows.Head],
    *,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> TailResult:
    """Replay the time line from ``first`` (the earliest key in ``changes``) in the pass and
    write what differs from the stored rows. ``participants``: the players of changed events
    with the keys of those events (their states before the change are needed); ``heads``: the
    tail's tournaments (``tail_heads``). ``progress`` is told the tournaments of the tail before
    the replay and once it is done."""
    progress(0, len(heads))
    # The tail's tournaments are read on a second connection while this one reads the stored
    # rows (``read_ahead``: on this transaction's snapshot; they are committed versions).
    conversions = sorted(key for key in map(order_key, CONVERSIONS) if key >= first)
    with WindowReader(session, windows.window_versions(heads)) as reader:
        stored = read_stored_tail(session, first, conversions)
        initial, joins = initial_states(session, stored, first, [pid for pid, _ in participants], conversions)
        timeline = tail_events(session, first, heads, reader)
    steps = replayed(initial, timeline, joins)
    progress(len(heads), len(heads))
    versions = {key[3]: version for key, version in heads}
    return write_differences(session, steps, versions=versions, stored=stored, changes=changes, initial=initial)


def tail_events(session: Session, first: OrderKey, heads: Sequence[windows.Head], reader: WindowReader) -> list[Event]:
    """The time line from ``first`` on, in order: the tournaments of ``heads`` (as ``reader``
    reads them), the start ratings and the conversions."""
    others: list[Event] = [s for s in stored_state.load_start_ratings(session) if order_key(s) >= first]
    others += [c for c in CONVERSIONS if order_key(c) >= first]
    return list(windows.windowed_timeline(session, heads, others, read=reader))


def replayed(
    initial: Mapping[PlayerId, PlayerState],
    timeline: Sequence[Event],
    joins: Sequence[tuple[OrderKey, PlayerId, PlayerState]],
) -> list[Step]:
    """The tail's steps, from the compiled pass."""
    return list(compiled_steps(initial, timeline, conversions_in_pass=True, joins=joins))


def initial_states(
    session: Session,
    stored: StoredTail,
    first: OrderKey,
    participants: Sequence[PlayerId],
    conversions: Sequence[OrderKey],
) -> tuple[dict[PlayerId, PlayerState], list[tuple[OrderKey, PlayerId, PlayerState]]]:
    """Every tail player's state just before ``first``, and the players who join the pass later.

    A player's first stored row in the tail (a conversion's not read) holds his state before it,
    as it is in the new time line too unless he plays in a changed event (those are read with
    ``states_before``). Where a conversion of the tail lies before that row, the state is the
    converted one: such a player joins the pass just before that row's position (without a
    rating until then, so that the pass does not convert him again)."""
    wanted = set(participants)
    before = conversions[0] if conversions else None
    states: dict[PlayerId, PlayerState] = {}
    joins: list[tuple[OrderKey, PlayerId, PlayerState]] = []
    for pid, row in stored.first_rows().items():
        if pid in wanted:
            continue
        key: OrderKey = (row[0], row[1], row[2], row[3])
        state = state_from_columns(row[6], row[7], row[8])
        if before is None or key < before:
            states[pid] = state
        else:
            states[pid] = EMPTY_STATE
            joins.append((key, pid, state))
    found = stored_state.states_before(session, [(pid, first) for pid in wanted])
    for pid in wanted:
        states[pid] = found[(pid, first)]
    joins.sort(key=itemgetter(0))
    return states, joins


def write_differences(
    session: Session,
    steps: Sequence[Step],
    *,
    versions: Mapping[int, int],
    stored: StoredTail,
    changes: Mapping[OrderKey, Event | None],
    initial: Mapping[PlayerId, PlayerState],
) -> TailResult:
    """Delete and write the rows where ``steps`` (the replayed tail) differ from ``stored``."""
    new_keys = {s.key for s in steps}
    removed = [key for key in stored.step_keys if key not in new_keys and key not in changes]
    removed += [key for key, event in changes.items() if event is None and key not in new_keys]
    whole = {s.key for s in steps if s.key in changes or s.key not in stored.step_keys}
    touched = [key[3] for key in removed if key[1] == 1]
    touched += [s.key[3] for s in steps if s.key in whole and s.evaluation is not None]
    stale_history: list[str] = []
    only: dict[OrderKey, tuple[set[PlayerId], set[PlayerId]]] = {}
    again: list[tuple[Step, int]] = []
    # Players whose state may differ from the stored one at this point of the tail, and their
    # states now. A step none of whose players is among them stands as stored (its inputs are
    # the stored ones, so is everything it computes): only the others are compared.
    dirty: set[PlayerId] = set()
    now: dict[PlayerId, PlayerState] = {}
    for key, step in _in_order(steps, removed):
        players = stored.players(key)
        if step is None or key in whole:
            # Removed, new or changed: its players' states differ from here on (or may). One
            # not yet among them is, before this step, as stored.
            for pid in players:
                if pid not in dirty:
                    now[pid] = stored.state_before(key, pid)
                    dirty.add(pid)
            if step is not None:
                dirty.update(step.inputs)
                now.update(step.outputs)
            continue
        conversion = key[1] == _CONVERSION_PHASE
        if conversion:
            stored.add_conversion_rows(session, key, list(dirty))
            players = stored.players(key)
        if dirty.isdisjoint(players) and not (conversion and any(pid in step.inputs for pid in dirty)):
            continue
        version = versions.get(key[3]) if key[1] == 1 else None
        # A conversion converts each player alone: only those whose state differs may change.
        among = [pid for pid in dirty if pid in players or pid in step.inputs] if conversion else None
        differing, gone = stored.compare_step(step, version, among)
        for pid in players if among is None else among:
            if pid in differing or pid in gone:
                dirty.add(pid)
            else:
                dirty.discard(pid)
        for pid in step.inputs if among is None else among:
            if pid in step.outputs:
                now[pid] = step.outputs[pid]
        if not differing and not gone:
            continue
        dirty.update(differing)
        stale_history += stored.places(key, [*gone, *differing])
        only[key] = (differing, set())
        if step.evaluation is not None:
            # Re-evaluated: a participant's state before it differs. Most of its report stands
            # (at scale 1, 10,083 of the late open's 750 tournaments' 71,157 report rows differ).
            assert version is not None
            again.append((step, version))
    stale_reports = compare_reports(session, again, only)
    store.delete_history_at(session, [*removed, *whole])
    store.delete_evaluations(session, touched)
    delete_stored(session, HistoryRow.__tablename__, stale_history)
    delete_stored(session, Evaluation.__tablename__, stale_reports)
    rewritten = whole | only.keys()
    written = [(s, versions.get(s.key[3]) if s.key[1] == 1 else None) for s in steps if s.key in rewritten]
    store.write_steps(session, written, only)
    evaluated = sum(1 for s in steps if s.key in whole and s.evaluation is not None) + len(again)
    return TailResult(evaluated, _changed_finals(dirty, now, stored, initial), len(removed), touched)


def _in_order(steps: Sequence[Step], removed: Sequence[OrderKey]) -> list[tuple[OrderKey, Step | None]]:
    """The new steps and the removed keys (None) in the order of their keys."""
    merged: list[tuple[OrderKey, Step | None]] = [(s.key, s) for s in steps]
    merged += [(key, None) for key in removed]
    merged.sort(key=itemgetter(0))
    return merged


def compare_reports(
    session: Session,
    steps: Sequence[tuple[Step, int]],
    only: dict[OrderKey, tuple[set[PlayerId], set[PlayerId]]],
) -> list[str]:
    """Fill in ``only``'s reported players of re-evaluated stored tournaments (those whose
    report row differs from the stored one); where the stored rows that differ or are no longer
    reported are."""
    reports = stored_reports(session, [(s.key[3], v) for s, v in steps])
    stale: list[str] = []
    for step, version in steps:
        assert step.evaluation is not None
        tid = step.key[3]
        had_rows = reports[(tid, version)]
        reported = only[step.key][1]
        new_rows = store.evaluation_rows(tid, version, step.evaluation.rule_set, step.evaluation.rows)
        for report_row, values in zip(step.evaluation.rows, new_rows, strict=True):
            had = had_rows.pop(values[2], None)
            if had is None or had[:-1] != values[3:]:
                reported.add(report_row.pid)
                if had is not None:
                    stale.append(had[-1])
        stale += [had[-1] for had in had_rows.values()]  # no longer reported
    return stale


def _changed_finals(
    dirty: set[PlayerId],
    now: Mapping[PlayerId, PlayerState],
    stored: StoredTail,
    initial: Mapping[PlayerId, PlayerState],
) -> dict[PlayerId, PlayerState]:
    """The final states of the players whose final state differs from the stored one (after
    their last stored row in the tail, or before the tail)."""
    changed = {}
    for pid in dirty:
        state = now.get(pid, initial.get(pid))
        was = stored.state_after_last(pid) or initial.get(pid)
        if state is not None and was != state:
            changed[pid] = state
    return changed
