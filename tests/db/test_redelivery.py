"""A message taken by a worker that dies before acknowledging it is delivered again.

A real worker (``zdb worker --no-beat``: no sweeper, so nothing but the broker can start the
run again) takes a recalculation and is killed with its whole process group in the middle of
the run. A second worker finds the message again once the broker's visibility timeout (here
2 s) has passed, and its run leaves the database consistent.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from sqlalchemy import select, text

from tests.conftest import ROOT
from tests.db.scenario import big_time_line, differences, is_clean, submit
from workers.celery_app import create_app
from zdb.config import Settings
from zdb.db import engine_for
from zdb.ratings.models import RecalcState
from zdb.ratings.recalc import LOCK_KEY

pytestmark = pytest.mark.slow

VISIBILITY_SECONDS = 2


def _wait(condition: Any, timeout: float, what: str) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if condition():
            return time.monotonic() - started
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}")


def _worker(postgres_url: str, redis_url: str, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "ZDB_DATABASE_URL": postgres_url,
        "ZDB_BROKER_URL": redis_url,
        "ZDB_BROKER_VISIBILITY_TIMEOUT": str(VISIBILITY_SECONDS),
    }
    with log.open("ab") as output:
        return subprocess.Popen(
            [sys.executable, "-m", "zdb", "worker", "--no-beat", "--loglevel=warning"],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip


def _stop(process: subprocess.Popen[bytes], sig: int) -> None:
    if process.poll() is None:
        os.killpg(process.pid, sig)
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def test_a_task_whose_worker_died_is_delivered_again(postgres_url: str, redis_url: str, tmp_path: Path) -> None:
    redis.Redis.from_url(redis_url).flushdb()
    submit(postgres_url, big_time_line(1500))
    engine = engine_for(postgres_url)
    log = tmp_path / "workers.log"
    first = _worker(postgres_url, redis_url, log)
    try:
        create_app(Settings(database_url=postgres_url, broker_url=redis_url)).send_task("zdb.recalculate")

        def computing() -> bool:
            with engine.connect() as connection:
                return bool(connection.execute(select(RecalcState.progress_done).where(RecalcState.id == 1)).scalar())

        _wait(computing, 60, "the first worker's run")
    finally:
        _stop(first, signal.SIGKILL)  # the worker and its pool: no acknowledgement, no clean-up

    def released() -> bool:
        with engine.connect() as connection:
            held = connection.execute(
                text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = :key"), {"key": LOCK_KEY}
            ).scalar()
        return not held

    _wait(released, 60, "the killed run's rollback")
    assert not is_clean(postgres_url)
    second = _worker(postgres_url, redis_url, log)
    try:
        seconds = _wait(lambda: is_clean(postgres_url), 90, "the message delivered again")
    finally:
        _stop(second, signal.SIGTERM)
        print(log.read_text(errors="replace")[-4000:])
    print(f"consistent {seconds:.1f} s after the second worker started")
    assert differences(postgres_url) == []
    redis.Redis.from_url(redis_url).flushdb()
