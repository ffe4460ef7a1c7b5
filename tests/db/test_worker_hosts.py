"""Several workers, one recalculation: the drill of two worker processes (two hosts of compose's
scaled ``worker`` service) and one beat, on the machinery of ``tests/db/test_drills.py``.

Both workers take tasks from the one queue; the recalculation lock lets exactly one run at a
time (a second task finds the lock taken and ends at once); the worker running a recalculation
is killed in the middle, and the other takes the work over — beat's sweep sends the task again
while the dirty position is set, so the broker's redelivery (its visibility timeout set long
here) is not what rescues it. Beat runs once, as a service of its own: the workers run without.

"In the middle" is made certain, not hoped for (``Production.history_held``): the worker killed is
the one whose run holds the recalculation's lock while it waits to write its history.
"""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import text

from tests.db.test_drills import (  # noqa: F401 - fixtures used here
    Production,
    _all_accepted,
    _stop,
    _wait,
    broker,
    drill_template,
    production,
)
from workers.celery_app import create_app
from zdb.config import Settings
from zdb.db import engine_for
from zdb.recalculation.recalculate import LOCK_KEY

pytestmark = pytest.mark.slow

_HOLDER = text(
    "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
    "WHERE l.locktype = 'advisory' AND l.objid = :key AND l.granted AND a.datname = current_database()"
)


class LockWatch:
    """Who holds the recalculation's lock, sampled every few milliseconds: the holders' names
    (each worker connects under its own application name) and the largest count at once."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.seen: list[str] = []
        self.most = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with engine_for(self.url).connect() as connection:
                    holders = [row[0] for row in connection.execute(_HOLDER, {"key": LOCK_KEY})]
            except Exception:  # a sample lost to a dropped connection is no finding
                holders = []
            self.most = max(self.most, len(holders))
            for holder in holders:
                if not self.seen or self.seen[-1] != holder:
                    self.seen.append(holder)
            time.sleep(0.02)

    def __enter__(self) -> LockWatch:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


def _nodes(drill: Production) -> set[str]:
    app = create_app(Settings(broker_url=drill.redis.url))
    try:
        return {name.split("@")[0] for reply in app.control.ping(timeout=0.5) for name in reply}
    finally:
        app.close()


@pytest.fixture
def two_hosts(production: Production) -> Iterator[dict[str, subprocess.Popen[bytes]]]:  # noqa: F811
    # the broker's redelivery would rescue a lost run too, after its visibility timeout: set long,
    # so that the takeover is the other worker's, sent by beat's sweep
    production.settings["ZDB_BROKER_VISIBILITY_TIMEOUT"] = "3600"
    workers = {}
    for name in ("host-a", "host-b"):
        production.settings["PGAPPNAME"] = name  # libpq: each worker's connections say whose they are
        workers[name] = production._start("worker", "--loglevel=info", "--no-beat", "--name", name)
    production.settings["PGAPPNAME"] = "zdb-beat"
    production._start("beat", "--loglevel=info")
    production.settings.pop("PGAPPNAME")
    _wait(lambda: _nodes(production) >= {"host-a", "host-b"}, 90, "both workers")
    _wait(production.consistent, 90, "the backlog's run")  # the drill's run is the late one below
    yield workers


def test_two_workers_one_run_at_a_time_and_a_lost_host_taken_over(
    production: Production,  # noqa: F811
    two_hosts: dict[str, subprocess.Popen[bytes]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    production.serve()
    with LockWatch(production.url) as watch:
        with production.history_held():
            _all_accepted([production.send(k) for k in range(4)])
            # more tasks than one worker can take: both workers hold one; the lock lets one run
            app = create_app(Settings(broker_url=production.redis.url))
            for _ in range(4):
                app.send_task("zdb.recalculate")
            app.close()
            running: list[str] = []
            _wait(
                lambda: (node := production.waiting_run()) is not None and running.append(node) is None, 60, "the run"
            )
            lost = running[0]
            _stop(two_hosts[lost], signal.SIGKILL)  # type: ignore[arg-type] # the host lost: no clean-up, no acknowledgement
            killed = time.monotonic()
        _wait(production.lock_released, 60, "the killed run's rollback")
        assert not production.consistent()  # the lost run committed nothing
        _all_accepted([production.send(k) for k in range(4, 6)])  # submissions go on meanwhile
        _wait(production.consistent, 90, "the other worker's run")
    survivor = ({"host-a", "host-b"} - {lost}).pop()
    assert two_hosts[survivor].poll() is None
    assert watch.most == 1  # never two runs at once
    # the lost host ran, then the other took over (its name is the last to hold the lock)
    assert lost in watch.seen and watch.seen[-1] == survivor
    with engine_for(production.url).connect() as connection:
        twice = connection.execute(
            text("SELECT generation FROM recalc_runs GROUP BY generation HAVING count(*) > 1")
        ).all()
    assert twice == []  # no generation of changes recalculated by two runs
    production.assert_nothing_lost("two workers, one lost mid-run", time.monotonic() - killed, capsys)
