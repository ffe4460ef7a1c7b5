"""The recalculation: keeps every stored figure equal to a from-scratch evaluation of all
tournaments in the order of spec §2 (the invariant of the whole system).

A run reads the generation counter, then what changed since the last run (tournaments whose
current version is not the evaluated one, withdrawn ones still evaluated, new start ratings),
drives the engine's incremental replay from the earliest change over the stored steps
(``stored_walk``), writes the steps at changed positions whole and, of the stored steps the
replay applied again, only the rows that differ (``mending``), then the current ratings, and
clears the dirty position only if the generation is still the one it read: a submission that
arrived meanwhile leaves the position dirty, and the next run takes it. Runs are serialised by
a PostgreSQL advisory lock (a process lock on SQLite). The caller owns the transaction: this
module flushes only.

A from-scratch run reads the time line's order first (every tournament's head, no games), then
the tournaments window by window as the replay reaches them (``windows``), so that its memory
stays flat in the number of years; on PostgreSQL a second connection reads the next window while
the engine replays the last (``read_ahead``). It streams the replay's rows to the server as they come
(``repository.write_steps``), so that the server stores them while the engine computes. On
PostgreSQL they go into bare copies of the history and evaluation tables, indexed and swapped
in at the end (``shadow_tables``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import bindparam, case, func, select, text, update
from sqlalchemy.orm import Session

from zdb.bulk import keys_table
from zdb.compiled_replay.driver import streamed_steps
from zdb.db import is_postgres
from zdb.locks import RECALCULATION
from zdb.rating import (
    CONVERSIONS,
    Event,
    OrderKey,
    PlayerId,
    PlayerState,
    StartRating,
    Step,
    Tournament,
    order_key,
    replay_incremental,
)
from zdb.rating.entries import participant_ids
from zdb.recalculation import compiled_tail, impact, mending, store, windows
from zdb.recalculation.read_ahead import WindowReader
from zdb.recalculation.shadow_tables import ShadowTables
from zdb.recalculation.stored_walk import StoredWalk
from zdb.timeline import stored_state
from zdb.timeline.models import Evaluation, HistoryRow, StartRatingRow
from zdb.timeline.state import finish_run, run_start
from zdb.tournaments import engine_view, pending_versions
from zdb.tournaments.models import TournamentRecord, TournamentVersion

__all__ = ["LOCK_KEY", "Progress", "RecalcOutcome", "milliseconds_between", "recalculate"]

#: pg_advisory_xact_lock key of the recalculation
LOCK_KEY = RECALCULATION
_PROCESS_LOCK = threading.Lock()

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class RecalcOutcome:
    ran: bool  # False: another run holds the lock (it will see our change: nothing is lost)
    from_scratch: bool = False
    generation: int = 0
    clean: bool = False  # the dirty position was cleared
    evaluated: int = 0  # tournaments evaluated in this run
    changed_players: int = 0  # players whose current state changed
    removed: int = 0  # events that left the time line
    duration_ms: int = 0


def _on_postgresql(session: Session) -> bool:
    return is_postgres(session)


def _try_lock(session: Session) -> bool:
    if is_postgres(session):
        return bool(session.execute(text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": LOCK_KEY}).scalar())
    return True  # SQLite: callers hold _PROCESS_LOCK; the database file serialises writers


def recalculate(
    session: Session,
    *,
    from_scratch: bool = False,
    progress: Progress | None = None,
    started: Callable[[], None] | None = None,
) -> RecalcOutcome:
    """Bring the stored results up to date; see the module docstring. ``started`` is called
    once the run holds the lock (a run that finds the lock taken returns without calling it)."""
    is_sqlite = not is_postgres(session)
    if is_sqlite and not _PROCESS_LOCK.acquire(blocking=False):
        return RecalcOutcome(ran=False)
    try:
        if not _try_lock(session):
            return RecalcOutcome(ran=False)
        if started is not None:
            started()
        began, began_at = time.monotonic(), datetime.now(UTC)
        # Read the generation before the changes: a change committed after this read makes the
        # final conditional update fail and leaves the position dirty for the next run.
        generation, dirty_date = run_start(session)
        # Changed initial states move the whole time line; with nothing stored yet there is
        # nothing to start from: both are from-scratch runs.
        if dirty_date == date.min or session.execute(select(HistoryRow.event_date).limit(1)).first() is None:
            from_scratch = True
        run = _full_run if from_scratch else _incremental_run
        evaluated, changed, removed = run(session, generation, progress or (lambda done, total: None))
        duration_ms = milliseconds_between(began, time.monotonic())
        clean = _finish(
            session, generation, began_at=began_at, evaluated=evaluated, changed=changed, duration_ms=duration_ms
        )
        return RecalcOutcome(True, from_scratch, generation, clean, evaluated, changed, removed, duration_ms)
    finally:
        if is_sqlite:
            _PROCESS_LOCK.release()


def milliseconds_between(began: float, ended: float) -> int:
    """The whole milliseconds from ``began`` to ``ended`` (seconds of one clock), cut, not
    rounded: the run's duration as the state row and the outcome give it."""
    return int((ended - began) * 1000)


def _finish(
    session: Session, generation: int, *, began_at: datetime, evaluated: int, changed: int, duration_ms: int
) -> bool:
    figures = {
        "last_started_at": began_at,
        "last_finished_at": datetime.now(UTC),
        "last_generation": generation,
        "last_evaluated": evaluated,
        "last_changed_players": changed,
        "last_duration_ms": duration_ms,
        "last_error": None,
    }
    return finish_run(session, generation, figures)


def _counting(steps: Iterator[Step], total: int, progress: Progress) -> Iterator[Step]:
    done = 0
    for step in steps:
        if isinstance(step.event, Tournament):
            done += 1
            if done % 500 == 0:
                progress(done, total)
        yield step
    progress(done, total)


def _full_run(session: Session, generation: int, progress: Progress) -> tuple[int, int, int]:
    # Read before loading: a tournament withdrawn after this point has its results written
    # below and stays pending (withdrawn but evaluated) for the next run.
    withdrawn = list(
        session.execute(select(TournamentRecord.id).where(TournamentRecord.status == "withdrawn")).scalars()
    )
    initial = stored_state.load_initial_states(session)
    heads = windows.load_heads(session)
    versions = {key[3]: version for key, version in heads}
    others: list[Event] = [*stored_state.load_start_ratings(session), *CONVERSIONS]
    # PostgreSQL: the windows are read ahead on a second connection, on this transaction's
    # snapshot as it is now (``read_ahead``); it starts with the first window at once.
    reads = WindowReader(session, windows.window_versions(heads)) if _on_postgresql(session) else nullcontext()
    with reads as read_ahead:
        progress(0, len(versions))
        # PostgreSQL: the history and the evaluations are written into bare copies and swapped in.
        shadow = (
            ShadowTables(session, [HistoryRow.__tablename__, Evaluation.__tablename__])
            if _on_postgresql(session)
            else None
        )
        store.delete_all_results(session, rebuilt=shadow is not None)
        if shadow is not None:
            shadow.create()
        final: dict[str, PlayerState] = dict(initial)
        into = shadow.target if shadow is not None else str
        with store.step_copies(session, into=into) as copies:
            # The steps are copied over the session's connection while the tournaments are read:
            # on PostgreSQL by the reader's connection, on SQLite over this one, each read
            # pausing the copy (``windows``).
            timeline = windows.windowed_timeline(session, heads, others, before_read=copies.pause, read=read_ahead)

            def replayed() -> Iterator[tuple[Step, int | None]]:
                # Steps are written as they come and not kept: the time line's results never sit
                # in memory all at once.
                # The compiled pass where numba is installed, else the engine (the same steps).
                for step in _counting(streamed_steps(initial, timeline), len(versions), progress):
                    final.update(step.outputs)
                    yield step, versions.get(step.key[3]) if step.key[1] == 1 else None

            store.write_steps(session, replayed(), into=into, copies=copies)
    if shadow is not None:
        shadow.swap()
    before = impact.stored_ratings(session)
    changed = store.replace_current_ratings(session, final)
    impact.record_impact(
        session, generation=generation, from_scratch=True, tournaments=versions, before=before, after=final
    )
    _mark_evaluated(session, versions, withdrawn, generation)
    session.execute(update(StartRatingRow).values(evaluated=True))
    return len(versions), changed, 0


def _mark_evaluated(session: Session, versions: dict[int, int], withdrawn: list[int], generation: int) -> None:
    """Record which version each tournament's stored evaluation belongs to; it is "evaluated"
    only if no correction arrived during the run (then it stays pending for the next run). A
    stale mark is cleared only if it was set at or before the generation the run started
    from: a participant's fact learned during the run may not have been read by it."""
    t = TournamentRecord
    evaluated = list(versions)
    for start in range(0, len(evaluated), 5000):
        session.execute(
            update(t)
            .where(
                t.id.in_(evaluated[start : start + 5000]),
                t.stale_generation.is_not(None),
                t.stale_generation <= generation,
            )
            .values(stale_generation=None)
            .execution_options(synchronize_session=False)
        )
    for start in range(0, len(withdrawn), 5000):
        session.execute(update(t).where(t.id.in_(withdrawn[start : start + 5000])).values(evaluated_version=None))
    if not versions:
        return
    if _on_postgresql(session):
        # One statement for every tournament of a from-scratch run (tens of thousands).
        chosen = keys_table([t.__table__.c.id, t.__table__.c.evaluated_version], list(versions.items()))
        version = chosen.c.evaluated_version
        session.execute(
            update(t)
            .where(t.id == chosen.c.id)
            .values(
                evaluated_version=version,
                status=case(((t.current_version == version) & (t.status != "withdrawn"), "evaluated"), else_=t.status),
            )
            .execution_options(synchronize_session=False)
        )
        return
    statement = (
        update(t)
        .where(t.id == bindparam("tid"))
        .values(
            # The stored evaluation belongs to this version even if the tournament was corrected
            # or withdrawn meanwhile: then it stays pending, and the next run mends it.
            evaluated_version=bindparam("version"),
            status=case(
                ((t.current_version == bindparam("version")) & (t.status != "withdrawn"), "evaluated"),
                else_=t.status,
            ),
        )
        .execution_options(synchronize_session=False)
    )
    session.connection().execute(statement, [{"tid": tid, "version": v} for tid, v in versions.items()])


def _participants(event: Event) -> tuple[PlayerId, ...]:
    """Whose stored states a changed event reads (a conversion is never a change)."""
    if isinstance(event, Tournament):
        return participant_ids(event)
    assert isinstance(event, StartRating)
    return (event.pid,)


def _incremental_run(session: Session, generation: int, progress: Progress) -> tuple[int, int, int]:
    pending = pending_versions.pending_tournaments(session)
    starts = stored_state.load_start_ratings(session, pending_only=True)
    if not pending and not starts:
        return 0, 0, 0
    old_keys = pending_versions.version_keys(
        session, [(p.id, p.evaluated_version) for p in pending if p.evaluated_version is not None]
    )
    changes: dict[OrderKey, Event | None] = {}
    for (tid, _), (end_date, acronym) in old_keys.items():
        changes[(end_date, 1, acronym, tid)] = None
    fresh = engine_view.load_tournaments(session, [(p.id, p.current_version) for p in pending if not p.withdrawn])
    versions = {tid: version for tid, (_, version) in fresh.items()}
    for tournament, _ in fresh.values():
        changes[order_key(tournament)] = tournament
    for start in starts:
        changes[order_key(start)] = start

    first = min(changes)
    participants = [(pid, key) for key, event in changes.items() if event is not None for pid in _participants(event)]
    # PostgreSQL with the compiled pass and a tail short enough: the tail replayed from states
    # (``compiled_tail``); else walked.
    heads = compiled_tail.tail_heads(session, first) if compiled_tail.available(session) else None
    if heads is not None:
        tail = compiled_tail.replay_tail(session, first, changes, participants, heads, progress=progress)
        evaluated, final_states, removed = tail.evaluated, tail.final_states, tail.removed
        touched_tournaments = tail.touched_tournaments
    else:
        evaluated, final_states, removed, touched_tournaments = _walked(
            session, changes=changes, first=first, participants=participants, versions=versions, progress=progress
        )
    before = impact.stored_ratings(session, final_states)
    store.write_current_ratings(session, final_states)
    impact.record_impact(
        session,
        generation=generation,
        from_scratch=False,
        tournaments=[*touched_tournaments, *versions],
        before=before,
        after=final_states,
    )
    _mark_evaluated(session, versions, [p.id for p in pending if p.withdrawn], generation)
    for start in starts:
        session.execute(
            update(StartRatingRow)
            .where(StartRatingRow.player_pkz == int(start.pid), StartRatingRow.rating_date == start.date)
            .values(evaluated=True)
        )
    return evaluated, len(final_states), removed


def _walked(
    session: Session,
    *,
    changes: dict[OrderKey, Event | None],
    first: OrderKey,
    participants: list[tuple[PlayerId, OrderKey]],
    versions: dict[int, int],
    progress: Progress,
) -> tuple[int, Mapping[PlayerId, PlayerState], int, list[int]]:
    """The walk over the stored steps through the engine's incremental replay (SQLite, or
    without the compiled pass): evaluated, changed final states, removed, touched tournaments."""
    total = session.execute(
        select(func.count())
        .select_from(TournamentVersion)
        .join(
            TournamentRecord,
            (TournamentRecord.id == TournamentVersion.tournament_id)
            & (TournamentRecord.current_version == TournamentVersion.version),
        )
        .where(TournamentVersion.end_date >= first[0], TournamentRecord.status != "withdrawn")
    ).scalar_one()
    walk = StoredWalk(session, first, progress, total)
    progress(0, total)
    # The replay asks for a player's stored state before a position where he has no stored step
    # there: every participant of a changed event, read at once before the walk (nothing is
    # written before it ends, so these are the states it would read one by one), and the few
    # others it meets (a player converted anew who had no stored conversion) one at a time.
    known = stored_state.states_before(session, participants)

    def state_before(pid: PlayerId, key: OrderKey) -> PlayerState:
        state = known.get((pid, key))
        return stored_state.state_before(session, None, pid, key) if state is None else state

    result = replay_incremental(walk.steps(), changes, state_before, walk.watch)
    progress(total, total)
    stored_versions, reapplied = walk.versions, walk.reapplied

    # Write: steps at changed keys whole (removed ones only deleted), re-applied stored steps
    # only where their rows differ, then current states.
    step_versions = {**stored_versions, **versions}
    whole = [s for s in result.steps if s.key in changes or s.key not in reapplied]
    assert all(s.partial is None for s in whole), "a conversion is re-applied, never changed"
    store.delete_history_at(session, [*result.removed, *(s.key for s in whole)])
    touched_tournaments = [key[3] for key in result.removed if key[1] == 1]
    touched_tournaments += [s.key[3] for s in whole if s.evaluation is not None]
    store.delete_evaluations(session, touched_tournaments)
    only = mending.mend(
        session,
        [
            (s, step_versions.get(s.key[3]) if s.key[1] == 1 else None, reapplied[s.key])
            for s in result.steps
            if s.key not in changes and s.key in reapplied
        ],
    )
    versioned = ((s, step_versions.get(s.key[3]) if s.key[1] == 1 else None) for s in result.steps)
    store.write_steps(session, versioned, only)
    return result.evaluated, result.final_states, len(result.removed), touched_tournaments
