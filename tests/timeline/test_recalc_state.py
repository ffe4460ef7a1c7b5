"""The recalculation's state row (``zdb.timeline.state``) read and written as its
users rely on: the dirty position and since when it waits, the generation a run starts from,
a run's end clearing the position only for its own generation, and the running run's marks.
Figures worked out by hand from the calls made; on both databases."""

from __future__ import annotations

from datetime import UTC, date, datetime

from zdb.db import database_key, engine_for, unit_of_work
from zdb.locks import RECALCULATION, hold
from zdb.timeline import live_progress
from zdb.timeline.dirty import mark_dirty
from zdb.timeline.state import (
    current_run,
    dirty_position,
    dirty_since,
    finish_run,
    is_dirty,
    locked_state,
    read_state,
    recalc_running,
    run_start,
    write_aside,
)

SPRING = (date(2025, 3, 2), 1, "FRU", 11)
SUMMER = (date(2025, 6, 1), 1, "SOM", 12)


def test_a_clean_time_line(database_url: str) -> None:
    engine = engine_for(database_url)
    with unit_of_work(engine) as session:
        state = read_state(session)
        assert (state.id, state.generation, dirty_position(state)) == (1, 0, None)
        assert dirty_since(session) is None and not is_dirty(session)
        assert run_start(session) == (0, None)
        assert mark_dirty(session, []) is None  # no key: nothing moves
        assert read_state(session).generation == 0
    with engine.connect() as connection:
        assert not is_dirty(connection)


def test_the_first_change_starts_the_wait_and_later_ones_keep_it(database_url: str) -> None:
    engine = engine_for(database_url)
    before = datetime.now(UTC)
    with unit_of_work(engine) as session:
        assert mark_dirty(session, [SUMMER]) == 1
        since = locked_state(session).dirty_since
        assert since is not None
        # SQLite keeps the UTC date-time without its zone
        assert before <= (since if since.tzinfo else since.replace(tzinfo=UTC)) <= datetime.now(UTC)
    with unit_of_work(engine) as session:
        assert mark_dirty(session, [SPRING, SUMMER]) == 2  # the earliest of the keys
        state = locked_state(session)
        assert dirty_position(state) == SPRING
        assert state.dirty_since == since  # counted from the first waiting change
        assert dirty_since(session) == SPRING[0] and is_dirty(session)
        assert run_start(session) == (2, SPRING[0])
    with engine.connect() as connection:
        assert is_dirty(connection)


def test_a_run_clears_only_its_own_generation(database_url: str) -> None:
    engine = engine_for(database_url)
    with unit_of_work(engine) as session:
        mark_dirty(session, [SUMMER])
    with unit_of_work(engine) as session:
        generation, _ = run_start(session)
        mark_dirty(session, [SPRING])  # arrives during the run
        assert not finish_run(session, generation, {"last_evaluated": 3, "last_generation": generation})
        state = read_state(session)
        assert dirty_position(state) == SPRING and state.dirty_since is not None
        assert (state.last_evaluated, state.last_generation) == (3, 1)  # the figures are kept
    with unit_of_work(engine) as session:
        generation, _ = run_start(session)
        assert generation == 2
        assert finish_run(session, generation, {"last_evaluated": 5, "last_generation": generation})
    with unit_of_work(engine) as session:
        state = read_state(session)
        position = (state.dirty_date, state.dirty_phase, state.dirty_text, state.dirty_id)
        assert (position, state.dirty_since, state.last_evaluated) == ((None, None, None, None), None, 5)
        assert not is_dirty(session) and dirty_since(session) is None


def test_the_running_run_is_seen_while_it_runs(database_url: str) -> None:
    engine = engine_for(database_url)
    since = datetime(2026, 12, 4, 10, 0, tzinfo=UTC)
    with unit_of_work(engine) as session:
        assert current_run(session) is None and not recalc_running(session)
    if database_url.startswith("postgresql"):
        with engine.connect() as aside:
            write_aside(aside, running_since=since, progress_done=4, progress_total=9)
        with unit_of_work(engine) as session:
            assert current_run(session) is None  # marks without the lock: a killed run's leftovers
        with unit_of_work(engine) as running, unit_of_work(engine) as reader:
            hold(running, RECALCULATION)
            assert current_run(reader) == (since, 4, 9) and recalc_running(reader)
    else:
        live_progress.started(database_key(engine), since)
        try:
            live_progress.advanced(database_key(engine), 4, 9)
            with unit_of_work(engine) as session:
                assert current_run(session) == (since, 4, 9) and recalc_running(session)
        finally:
            live_progress.finished(database_key(engine))
    with unit_of_work(engine) as session:
        assert current_run(session) is None and not recalc_running(session)
