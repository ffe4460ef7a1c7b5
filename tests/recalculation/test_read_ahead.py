"""The windows of a from-scratch run read ahead on a second connection (PostgreSQL): a reader
that fails fails the run, a run that fails stops its reader, and the reader's connection is
never left behind."""

from __future__ import annotations

import time
from typing import Any

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from tests.db.scenario import big_time_line, differences, exported, recalc, submit
from zdb.db import engine_for, unit_of_work
from zdb.recalculation import windows
from zdb.recalculation.read_ahead import READER_NAME
from zdb.recalculation.recalculate import recalculate
from zdb.timeline.models import Evaluation, HistoryRow
from zdb.tournaments import engine_view

_READERS = text("SELECT count(*) FROM pg_stat_activity WHERE application_name = :name AND datname = current_database()")


def _readers(url: str) -> int:
    """The reader backends on the test's database, once those that have been told to go have
    gone (a closed connection's backend leaves ``pg_stat_activity`` a moment after)."""
    with engine_for(url).connect() as connection:
        for _ in range(100):
            count = int(connection.execute(_READERS, {"name": READER_NAME}).scalar_one())
            # pg_stat_activity is read once per transaction: each look in a transaction of its own
            connection.rollback()
            if count == 0:
                break
            time.sleep(0.05)
        return count


def _stored(url: str) -> tuple[dict[str, Any], int, int]:
    with engine_for(url).connect() as connection:
        history = connection.execute(select(func.count()).select_from(HistoryRow)).scalar_one()
        evaluations = connection.execute(select(func.count()).select_from(Evaluation)).scalar_one()
    return exported(url), history, evaluations


def _evaluated_with_a_late_tournament(url: str) -> tuple[dict[str, Any], int, int]:
    """A time line of 40 tournaments evaluated, then one more submitted: what is stored."""
    document = big_time_line(40)
    submit(url, document)
    assert recalc(url, from_scratch=True).clean
    assert _readers(url) == 0  # a run that ends leaves no reader
    late = dict(document["events"][0], id=41, end_date="2017-02-01")
    submit(url, {"initial_states": {}, "events": [late]})
    assert differences(url) != []
    return _stored(url)


def test_a_reader_that_fails_mid_run_fails_the_run_and_stores_nothing(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _evaluated_with_a_late_tournament(postgres_url)
    load = engine_view.load_tournaments
    reads: list[int] = []

    def failing_at_the_third(session: Session, versions: Any = None) -> Any:
        reads.append(int(session.execute(_READERS, {"name": READER_NAME}).scalar_one()))
        if len(reads) == 3:  # the server ends the reader's backend in the middle of the run
            session.execute(text("SELECT pg_terminate_backend(pg_backend_pid())"))
        return load(session, versions)

    monkeypatch.setattr(windows, "WINDOW", 5)
    monkeypatch.setattr(engine_view, "load_tournaments", failing_at_the_third)
    with pytest.raises(OperationalError):
        recalc(postgres_url, from_scratch=True)
    assert reads == [1, 1, 1]  # read by the reader's own backend, named; none after the failure
    assert _readers(postgres_url) == 0
    assert _stored(postgres_url) == before
    monkeypatch.setattr(engine_view, "load_tournaments", load)
    assert recalc(postgres_url, from_scratch=True).clean
    assert differences(postgres_url) == []


def test_a_run_that_fails_while_its_reader_reads_ahead_stops_the_reader(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _evaluated_with_a_late_tournament(postgres_url)
    monkeypatch.setattr(windows, "WINDOW", 5)
    calls: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> None:
        calls.append((done, total))
        raise RuntimeError("the run fails while its reader reads the first window")

    with pytest.raises(RuntimeError, match="the run fails"), unit_of_work(engine_for(postgres_url)) as session:
        recalculate(session, from_scratch=True, progress=progress)
    assert calls == [(0, 41)]
    assert _readers(postgres_url) == 0
    assert _stored(postgres_url) == before
