"""The rating database and its recalculation, on PostgreSQL and on SQLite (embedded mode)."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any

import pytest
from sqlalchemy import delete, func, select, text, update
from sqlalchemy.exc import ProgrammingError
from sqlalchemy.orm import Session

from tests.conftest import VECTORS
from tests.db.scenario import (
    assert_export_equals,
    big_time_line,
    differences,
    exported,
    is_clean,
    recalc,
    submit,
    table_names,
)
from zdb.db import engine_for, unit_of_work
from zdb.migrate import downgrade, upgrade
from zdb.outbox.models import OutboxMessage
from zdb.outbox.relay import Handler, relay_due
from zdb.outbox.thread import RelayThread
from zdb.rating.replay import INCREMENTAL_WINDOW
from zdb.ratings.schemas import RecalcProgress, RecalcStatus
from zdb.ratings.status_queries import recalc_status
from zdb.recalculation import store, windows
from zdb.recalculation.embedded import EmbeddedRecalculator
from zdb.recalculation.recalculate import LOCK_KEY, recalculate
from zdb.timeline.models import PlayerRating, RecalcState
from zdb.tournaments import engine_view
from zdb.tournaments.models import TournamentRecord

REPLAY = VECTORS["replays"][0]


def _document(events: list[Any], states: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"initial_states": states or {}, "events": events}


def test_migrations_go_up_and_down(database_url: str) -> None:
    assert {"players", "tournaments", "games", "evaluations", "rating_history"} <= table_names(database_url)
    downgrade(database_url, "base")
    assert table_names(database_url) <= {"alembic_version"}
    upgrade(database_url)
    assert "rating_history" in table_names(database_url)


def test_the_replay_vector_through_the_database(database_url: str) -> None:
    submit(database_url, _document(REPLAY["events"], REPLAY["initial_states"]))
    outcome = recalc(database_url)
    assert outcome.ran and outcome.clean
    assert_export_equals(exported(database_url), REPLAY["expected"])
    assert differences(database_url) == []
    assert is_clean(database_url)


def test_late_tournament_is_evaluated_incrementally(database_url: str) -> None:
    # The vector's own story: tournament 5 arrives last but is evaluated before 2.
    early = [e for e in REPLAY["events"] if e["id"] != 5]
    (late,) = [e for e in REPLAY["events"] if e["id"] == 5]
    submit(database_url, _document(early, REPLAY["initial_states"]))
    recalc(database_url)
    assert differences(database_url) == []
    submit(database_url, _document([late]))
    assert differences(database_url) != []  # pending until recalculated
    outcome = recalc(database_url)
    assert not outcome.from_scratch
    assert outcome.evaluated >= 1
    assert_export_equals(exported(database_url), REPLAY["expected"])
    assert differences(database_url) == []


def test_correction_and_withdrawal(database_url: str) -> None:
    submit(database_url, _document(REPLAY["events"], REPLAY["initial_states"]))
    recalc(database_url)
    corrected = dict(REPLAY["events"][0], end_date="2026-07-01", acronym="ZZZ")  # moves across the conversion
    submit(database_url, _document([corrected, {"withdraw": 4}]))
    recalc(database_url)
    assert differences(database_url) == []
    document = exported(database_url)
    assert 4 not in document["order"] and "4" not in document["reports"]
    assert document["order"].index(1) > document["order"].index("conversion-2026")


def test_from_scratch_equals_incremental(database_url: str) -> None:
    submit(database_url, _document(REPLAY["events"][:3], REPLAY["initial_states"]))
    recalc(database_url)
    submit(database_url, _document(REPLAY["events"][3:]))
    recalc(database_url)
    incremental = exported(database_url)
    outcome = recalc(database_url, from_scratch=True)
    assert outcome.from_scratch
    assert exported(database_url) == incremental
    assert differences(database_url) == []


def test_a_late_tournament_whose_change_spreads_over_many_windows(database_url: str) -> None:
    # The incremental replay takes stored steps a window at a time (``INCREMENTAL_WINDOW``)
    # and the stored walk loads the tournaments it re-evaluates in batches: a change early in
    # a long time line re-evaluates hundreds of later tournaments, mended where their rows stand.
    document = big_time_line(500)
    submit(database_url, document)
    recalc(database_url)
    players = [f"P{k}" for k in range(1, 400, 37)]
    late = {
        "id": 9001,
        "acronym": "LAT",
        "end_date": "2017-06-30",
        "players": [{"pid": p, "birth_year": 1990} for p in players],
        "games": [{"white": a, "black": b, "result": "1-0"} for a, b in pairwise(players)],
    }
    corrected = dict(document["events"][250], games=document["events"][250]["games"][:-3])
    submit(database_url, _document([late, corrected]))
    outcome = recalc(database_url)
    assert not outcome.from_scratch and outcome.clean
    assert outcome.evaluated > 2 * INCREMENTAL_WINDOW
    assert differences(database_url) == []
    incremental = exported(database_url)
    recalc(database_url, from_scratch=True)
    assert exported(database_url) == incremental


def test_a_from_scratch_run_reads_the_time_line_in_windows(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Tiny windows, and the rows copied as they come: every window is read between copied
    # rows (on PostgreSQL with the copy paused), and the result is the vector's.
    reads: list[int] = []
    load = engine_view.load_tournaments

    def counted(session: Session, versions: Any = None) -> Any:
        if versions is not None:  # not ``verify``'s read of everything
            reads.append(len(versions))
        return load(session, versions)

    monkeypatch.setattr(windows, "WINDOW", 2)
    monkeypatch.setattr(store, "STEP_LINES", 1)
    monkeypatch.setattr(store, "STEP_SWITCH_AT", 1)
    monkeypatch.setattr(engine_view, "load_tournaments", counted)
    submit(database_url, _document(REPLAY["events"], REPLAY["initial_states"]))
    outcome = recalc(database_url, from_scratch=True)
    assert outcome.from_scratch and outcome.clean
    tournaments = len(REPLAY["expected"]["reports"])
    assert reads == [2] * (tournaments // 2) + [tournaments % 2] * (tournaments % 2)
    assert_export_equals(exported(database_url), REPLAY["expected"])
    assert differences(database_url) == []


def test_windows_of_a_long_time_line_give_the_same_result(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    submit(database_url, big_time_line(120))
    recalc(database_url, from_scratch=True)
    whole = exported(database_url)
    monkeypatch.setattr(windows, "WINDOW", 7)
    monkeypatch.setattr(store, "STEP_LINES", 50)
    monkeypatch.setattr(store, "STEP_SWITCH_AT", 4000)
    outcome = recalc(database_url, from_scratch=True)
    assert outcome.from_scratch and outcome.evaluated == 120
    assert exported(database_url) == whole
    assert differences(database_url) == []


def _current_ratings(url: str) -> dict[int, tuple[Any, ...]]:
    r = PlayerRating
    with engine_for(url).connect() as connection:
        rows = connection.execute(select(r.player_pkz, r.rating, r.rating_index, r.leftover, r.changed_at))
        return {row[0]: tuple(row[1:]) for row in rows}


def test_a_from_scratch_run_rewrites_only_the_ratings_that_differ(database_url: str) -> None:
    submit(database_url, _document(REPLAY["events"], REPLAY["initial_states"]))
    recalc(database_url)
    before = _current_ratings(database_url)
    assert len(before) == len(REPLAY["expected"]["final_states"])
    outcome = recalc(database_url, from_scratch=True)
    assert outcome.changed_players == 0 and _current_ratings(database_url) == before  # changed_at included
    tampered, untouched = sorted(before)[:2], sorted(before)[2:]
    with engine_for(database_url).begin() as connection:
        connection.execute(update(PlayerRating).where(PlayerRating.player_pkz == tampered[0]).values(rating_index=99))
        connection.execute(delete(PlayerRating).where(PlayerRating.player_pkz == tampered[1]))
    assert recalc(database_url, from_scratch=True).changed_players == 2
    after = _current_ratings(database_url)
    assert {pkz: after[pkz][:3] for pkz in before} == {pkz: row[:3] for pkz, row in before.items()}
    assert {pkz: after[pkz] for pkz in untouched} == {pkz: before[pkz] for pkz in untouched}
    assert differences(database_url) == []


def _table_definitions(url: str) -> set[tuple[str, str, str]]:
    """(table, name, definition) of every index and constraint of the rebuilt tables."""
    query = text(
        "SELECT i.indrelid::regclass::text, c.relname, pg_get_indexdef(i.indexrelid) FROM pg_index i"
        " JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid::regclass::text IN ('rating_history', 'evaluations')"
        " UNION ALL SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint"
        " WHERE conrelid::regclass::text IN ('rating_history', 'evaluations')"
    )
    with engine_for(url).connect() as connection:
        return {(table, name, definition) for table, name, definition in connection.execute(query)}


def test_a_from_scratch_run_rebuilds_the_tables_as_migrated(postgres_url: str) -> None:
    migrated = _table_definitions(postgres_url)
    submit(postgres_url, _document(REPLAY["events"], REPLAY["initial_states"]))
    recalc(postgres_url)
    first = exported(postgres_url)
    assert recalc(postgres_url, from_scratch=True).from_scratch
    assert _table_definitions(postgres_url) == migrated
    assert exported(postgres_url) == first
    # analysed before the keys were checked: the rebuilt tables keep the statistics
    with engine_for(postgres_url).connect() as connection:
        analysed = connection.execute(
            text("SELECT DISTINCT tablename FROM pg_stats WHERE tablename IN ('rating_history', 'evaluations')")
        )
        assert sorted(analysed.scalars()) == ["evaluations", "rating_history"]
    assert differences(postgres_url) == []
    downgrade(postgres_url, "base")  # the migrations find every name they created
    upgrade(postgres_url)


def test_withdrawing_an_unknown_tournament_stores_nothing(database_url: str) -> None:
    from zdb.errors import NotFoundError

    with pytest.raises(NotFoundError):
        submit(database_url, _document([REPLAY["events"][0], {"withdraw": 99}]))
    assert exported(database_url)["history"] == {}


def _blocking_progress(started: threading.Event, release: threading.Event) -> Any:
    def progress(done: int, total: int) -> None:
        started.set()
        assert release.wait(30)

    return progress


def test_a_submission_during_a_run_is_not_lost(postgres_url: str) -> None:
    submit(postgres_url, _document(REPLAY["events"][:4], REPLAY["initial_states"]))
    recalc(postgres_url)
    submit(postgres_url, _document([dict(REPLAY["events"][1], end_date="2026-05-01")]))
    started, release = threading.Event(), threading.Event()
    outcomes = []

    def run() -> None:
        with unit_of_work(engine_for(postgres_url)) as session:
            outcomes.append(recalculate(session, progress=_blocking_progress(started, release)))

    worker = threading.Thread(target=run)
    worker.start()
    assert started.wait(30)
    submit(postgres_url, _document([REPLAY["events"][4]]))  # commits while the run computes
    release.set()
    worker.join(60)
    (first,) = outcomes
    assert first.ran and not first.clean  # the run saw a newer generation: the position stays dirty
    assert not is_clean(postgres_url)
    assert recalc(postgres_url).clean
    assert differences(postgres_url) == []


def _statuses(url: str) -> list[tuple[str, int, int | None]]:
    t = TournamentRecord
    with unit_of_work(engine_for(url)) as session:
        rows = session.execute(select(t.status, t.current_version, t.evaluated_version).order_by(t.id))
        return [tuple(row) for row in rows]  # type: ignore[misc]


def test_a_correction_during_a_from_scratch_run_stays_pending(postgres_url: str) -> None:
    submit(postgres_url, _document(REPLAY["events"][:4], REPLAY["initial_states"]))
    recalc(postgres_url)
    assert {status for status, _, _ in _statuses(postgres_url)} == {"evaluated"}
    started, release = threading.Event(), threading.Event()
    outcomes = []

    def run() -> None:
        with unit_of_work(engine_for(postgres_url)) as session:
            outcomes.append(recalculate(session, from_scratch=True, progress=_blocking_progress(started, release)))

    worker = threading.Thread(target=run)
    worker.start()
    assert started.wait(30)  # the run has loaded every tournament
    submit(postgres_url, _document([dict(REPLAY["events"][1], end_date="2026-05-01")]))  # a correction commits
    release.set()
    worker.join(60)
    (first,) = outcomes
    assert first.ran and first.from_scratch and not first.clean
    # The run stored the evaluation of the version it loaded; the corrected tournament waits.
    statuses = _statuses(postgres_url)
    assert sorted(statuses) == [("evaluated", 1, 1)] * (len(statuses) - 1) + [("received", 2, 1)]
    assert recalc(postgres_url).clean
    assert {status for status, _, _ in _statuses(postgres_url)} == {"evaluated"}
    assert differences(postgres_url) == []


def test_runs_are_serialised(postgres_url: str) -> None:
    submit(postgres_url, _document(REPLAY["events"], REPLAY["initial_states"]))
    started, release = threading.Event(), threading.Event()

    def run() -> None:
        with unit_of_work(engine_for(postgres_url)) as session:
            recalculate(session, progress=_blocking_progress(started, release))

    worker = threading.Thread(target=run)
    worker.start()
    assert started.wait(30)
    second = recalc(postgres_url)
    release.set()
    worker.join(60)
    assert not second.ran
    assert differences(postgres_url) == []


def _status(url: str) -> RecalcStatus:
    with unit_of_work(engine_for(url)) as session:
        return recalc_status(session)


def test_a_run_that_finds_the_lock_taken_leaves_the_running_run_alone(postgres_url: str) -> None:
    submit(postgres_url, _document(REPLAY["events"], REPLAY["initial_states"]))
    engine = engine_for(postgres_url)
    since = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    with engine.connect() as running:  # a run under way: it holds the lock and shows its progress
        running.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
        with engine.begin() as connection:
            connection.execute(update(RecalcState).values(running_since=since, progress_done=3, progress_total=7))
        assert not recalc(postgres_url).ran
        status = _status(postgres_url)
        assert (status.state, status.running_since) == ("running", since)
        assert status.progress == RecalcProgress(done=3, total=7)
        running.rollback()


def test_a_failed_run_leaves_its_error_in_the_status(postgres_url: str) -> None:
    submit(postgres_url, _document(REPLAY["events"], REPLAY["initial_states"]))
    assert recalc(postgres_url).clean
    submit(postgres_url, _document([dict(REPLAY["events"][1], end_date="2026-05-01")]))
    with engine_for(postgres_url).begin() as connection:
        # A from-scratch run builds its copy of the history under this name (shadow_tables).
        connection.execute(text("CREATE TABLE rating_history_rebuilt (taken integer)"))
    with pytest.raises(ProgrammingError):
        recalc(postgres_url, from_scratch=True)
    status = _status(postgres_url)
    assert (status.state, status.running_since, status.progress) == ("pending", None, None)
    last = status.last_run
    assert last is not None and last.error is not None and last.started_at and last.finished_at
    assert last.error == 'DuplicateTable: relation "rating_history_rebuilt" already exists'
    assert last.started_at <= last.finished_at
    assert (last.generation, last.evaluated, last.changed_players) == (None, None, None)  # not the earlier run's
    with engine_for(postgres_url).begin() as connection:
        connection.execute(text("DROP TABLE rating_history_rebuilt"))
    assert recalc(postgres_url).clean
    last = _status(postgres_url).last_run
    assert last is not None and last.error is None and last.evaluated and last.started_at and last.finished_at
    assert last.started_at <= last.finished_at
    assert differences(postgres_url) == []


def test_a_run_shows_its_progress_while_it_runs(database_url: str) -> None:
    # In the embedded mode (SQLite) the run is a thread of the serving process, which reads
    # its progress from memory; on PostgreSQL from the row the run writes aside.
    submit(database_url, big_time_line(1200))
    seen: list[RecalcStatus] = []
    runner = threading.Thread(target=recalc, args=(database_url,))
    runner.start()
    while runner.is_alive():
        seen.append(_status(database_url))
        runner.join(0.05)  # a reader that never pauses would hold the run back
    running = [s for s in seen if s.state == "running"]
    assert running and all(s.running_since is not None and s.progress is not None for s in running)
    assert max(s.progress.total for s in running if s.progress) == 1200
    assert _status(database_url).state == "idle" and _status(database_url).progress is None


def test_embedded_mode_recalculates_in_a_background_thread(sqlite_url: str) -> None:
    engine = engine_for(sqlite_url)
    runner = EmbeddedRecalculator(engine, sweep_seconds=60)  # woken by the outbox's relay, not the sweep
    handlers: dict[str, Handler] = {"recalculate": lambda _s, _m: runner.wake(), "rating.run": lambda _s, _m: None}
    relay = RelayThread(engine, lambda: relay_due(engine, handlers).done > 0, poll_seconds=0.1)
    runner.start()
    relay.start()
    try:
        submit(sqlite_url, _document(REPLAY["events"], REPLAY["initial_states"]))  # the request is in the outbox
        deadline = time.monotonic() + 60
        while (_outbox_waiting(sqlite_url) or not is_clean(sqlite_url)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert runner.wait_idle(60)  # the relay woke the thread, and its run is over
        assert is_clean(sqlite_url) and _outbox_waiting(sqlite_url) == 0
        assert_export_equals(exported(sqlite_url), REPLAY["expected"])
    finally:
        relay.stop()
        runner.stop()
    assert differences(sqlite_url) == []


def _outbox_waiting(url: str) -> int:
    with engine_for(url).connect() as connection:
        return int(
            connection.execute(
                select(func.count()).select_from(OutboxMessage).where(OutboxMessage.done_at.is_(None))
            ).scalar_one()
        )
