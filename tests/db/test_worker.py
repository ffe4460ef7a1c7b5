"""The production mode's moving parts as separate processes: a real Celery worker consuming a
real Redis queue, and a recalculation killed in the middle of its run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from celery import signals
from celery.result import EagerResult
from fastapi.testclient import TestClient
from sqlalchemy import func, select, text
from sqlalchemy.exc import OperationalError, ProgrammingError

from tests.conftest import ROOT, VECTORS
from tests.db.scenario import assert_export_equals, big_time_line, differences, exported, is_clean, recalc, submit
from workers.celery_app import create_app
from zdb.app import create_app as create_api
from zdb.auth.service import create_token
from zdb.config import Settings, settings
from zdb.db import engine_for, unit_of_work
from zdb.players.models import Player
from zdb.recalculation.recalculate import LOCK_KEY
from zdb.synthetic.rating_lists import list_zip_bytes, synthetic_list
from zdb.timeline.models import HistoryRow, RecalcState

REPLAY = VECTORS["replays"][0]


def _wait(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}")


@pytest.fixture
def worker(postgres_url: str, redis_url: str, tmp_path: Path) -> Iterator[str]:
    """A Celery worker process (with beat) on this test's database and a flushed Redis db. Its
    output goes to a file (a pipe nobody reads would stall it once full) and is printed at the
    end: pytest shows it when the test fails."""
    redis.Redis.from_url(redis_url).flushdb()
    env = {**os.environ, "ZDB_DATABASE_URL": postgres_url, "ZDB_BROKER_URL": redis_url, "ZDB_SWEEP_SECONDS": "1"}
    log = tmp_path / "worker.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "zdb", "worker", "--loglevel=warning"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        try:
            yield redis_url
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    print(log.read_text(errors="replace")[-4000:])


def test_a_real_worker_recalculates_from_the_queue(postgres_url: str, worker: str) -> None:
    submit(postgres_url, {"initial_states": REPLAY["initial_states"], "events": REPLAY["events"]})
    create_app(Settings(database_url=postgres_url, broker_url=worker)).send_task("zdb.recalculate")
    _wait(lambda: is_clean(postgres_url), 60, "the worker's recalculation")
    assert_export_equals(exported(postgres_url), REPLAY["expected"])
    assert differences(postgres_url) == []


def test_the_sweeper_recovers_a_lost_message(postgres_url: str, worker: str) -> None:
    # No task is sent at all (as if the broker had lost it): beat's sweeper starts the run.
    submit(postgres_url, {"initial_states": REPLAY["initial_states"], "events": REPLAY["events"]})
    _wait(lambda: is_clean(postgres_url), 60, "the sweeper")
    assert differences(postgres_url) == []


def test_a_real_worker_imports_an_uploaded_rating_list(postgres_url: str, worker: str) -> None:
    """An admin's upload waits for the worker; the real worker takes the task ``zdb.import_list``
    from the queue (as the serving process sends it after the upload's commit) and imports it."""
    with unit_of_work(engine_for(postgres_url)) as session:
        secret = create_token(session, "admin", label="staff").secret
    data = synthetic_list(9, 40)
    headers = {"Authorization": f"Bearer {secret}"}
    with TestClient(create_api(Settings(database_url=postgres_url), recalculation=False)) as client:
        answer = client.post(
            "/api/v1/lists/imports",
            files={"file": ("LV-0-csv.zip", list_zip_bytes(data), "application/zip")},
            data={"list_date": "2026-11-30"},
            headers=headers,
        )
        assert answer.status_code == 202, answer.text
        assert answer.json()["status"] == "waiting"
        create_app(Settings(database_url=postgres_url, broker_url=worker)).send_task(
            "zdb.import_list", args=[answer.json()["id"]]
        )
        state: dict[str, Any] = {}

        def ended() -> bool:
            state.update(client.get(answer.headers["Location"], headers=headers).json())
            return state["status"] not in ("waiting", "running")

        _wait(ended, 60, "the worker's list import")
    assert state["status"] == "done", state
    people = len({member.person_id for member in data.members})
    assert state["result"]["counts"]["people_new"] == people
    with unit_of_work(engine_for(postgres_url)) as session:
        assert session.execute(select(func.count()).select_from(Player)).scalar_one() == people


def test_a_run_killed_half_way_leaves_no_partial_state(postgres_url: str) -> None:
    submit(postgres_url, big_time_line(1500))
    env = {**os.environ, "ZDB_DATABASE_URL": postgres_url}
    process = subprocess.Popen([sys.executable, "-m", "zdb", "recalc"], cwd=ROOT, env=env)
    engine = engine_for(postgres_url)

    def computing() -> bool:
        with engine.connect() as connection:
            done = connection.execute(select(RecalcState.progress_done).where(RecalcState.id == 1)).scalar()
        return bool(done)

    _wait(computing, 60, "the run's progress")
    process.kill()  # SIGKILL: no clean-up of any kind
    process.wait()

    def released() -> bool:
        # The killed run's server process rolls back once it sees the connection gone; while
        # it still works through rows already sent (a COPY streams during the replay) it holds
        # the run's lock, and a run started now would find the lock taken.
        with engine.connect() as connection:
            held = connection.execute(
                text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = :key"), {"key": LOCK_KEY}
            ).scalar()
        return not held

    _wait(released, 60, "the killed run's rollback")
    with engine.connect() as connection:
        stored = connection.execute(select(HistoryRow.event_date).limit(1)).first()
    assert stored is None  # nothing of the killed run's work is visible
    assert not is_clean(postgres_url)
    assert recalc(postgres_url).clean  # the next run completes it
    assert differences(postgres_url) == []


@pytest.fixture
def task_database(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Points the tasks, which read the process's settings, at a database of the test's choice."""

    def use(url: str) -> None:
        monkeypatch.setenv("ZDB_DATABASE_URL", url)
        settings.cache_clear()

    yield use
    settings.cache_clear()  # before the environment is restored: the next reader reads it again


def _attempted(task: Any, **kwargs: Any) -> tuple[EagerResult, int]:
    """The task run in this process (its retries too, at once); its result and its retries."""
    retries = []

    def count(**_: Any) -> None:
        retries.append(1)

    signals.task_retry.connect(count)
    try:
        return task.apply(kwargs=kwargs), len(retries)
    finally:
        signals.task_retry.disconnect(count)


def test_a_recalculation_task_retries_only_what_may_pass(postgres_url: str, task_database: Any) -> None:
    from workers.tasks import recalculate

    submit(postgres_url, {"initial_states": REPLAY["initial_states"], "events": REPLAY["events"]})
    with engine_for(postgres_url).begin() as connection:
        # A from-scratch run builds its copy of the history under this name (shadow_tables).
        connection.execute(text("CREATE TABLE rating_history_rebuilt (taken integer)"))
    task_database(postgres_url)
    failed, retries = _attempted(recalculate, from_scratch=True)
    assert isinstance(failed.result, ProgrammingError) and retries == 0  # fails the same way every time
    task_database("postgresql+psycopg://postgres@127.0.0.1:1/unreachable")  # nothing listens on port 1
    failed, retries = _attempted(recalculate)
    assert isinstance(failed.result, OperationalError) and retries == recalculate.max_retries


def test_at_most_one_recalculation_waits_in_the_queue(redis_url: str) -> None:
    from workers.tasks import request

    broker = redis.Redis.from_url(redis_url)
    broker.flushdb()
    celery = create_app(Settings(broker_url=redis_url))
    sent = [request(celery) for _ in range(50)]  # fifty submissions while no worker takes any
    assert sent == [True] + [False] * 49 and broker.llen("zdb") == 1
    assert 0 < int(broker.ttl("zdb:recalculation-waiting")) <= 60  # a lost message is sent again
    broker.delete("zdb:recalculation-waiting")  # as the task does when it starts
    assert request(celery) and broker.llen("zdb") == 2
    broker.flushdb()


def test_sweeps_do_not_pile_up_while_no_worker_runs(redis_url: str) -> None:
    broker = redis.Redis.from_url(redis_url)
    broker.flushdb()
    celery = create_app(Settings(broker_url=redis_url, sweep_seconds=7))
    sweep = celery.conf.beat_schedule["zdb-sweep"]
    celery.send_task(sweep["task"], **sweep["options"])  # as beat sends it
    (message,) = broker.lrange("zdb", 0, -1)
    assert json.loads(message)["headers"]["expires"] is not None  # dropped if it waited past the next sweep
    broker.flushdb()
