"""Failure drills: the production mode as separate processes (``zdb serve``, ``zdb worker`` with
beat, a Redis of the drills' own, PostgreSQL) taking referees' submissions while something
breaks. Each drill ends with ``zdb verify``'s comparison clean (run in the test's process) and
every accepted submission evaluated in its latest version, and prints the time the database
took to be consistent again (past pytest's capture, so that the log of CI shows it).

The data is small: the world of the API tests (a federation, its clubs, eight players, the
tokens) and a time line of club round robins that is not yet evaluated. Both are made once, in
a template database that each drill clones. A run of it takes well under a second, too short to
be broken in the middle by chance: a drill that kills a run holds the history table against
writers (``Production.history_held``; readers pass), waits until the run holding the
recalculation's lock waits for it (``Production.waiting_run``) — its evaluation under way,
nothing of it committed — and breaks it there.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis as redis_client
from sqlalchemy import select, text

from tests.api.test_submissions import _games
from tests.api.world import World, build_world
from tests.conftest import ROOT
from tests.databases import _admin, _with_database
from tests.db.scenario import big_time_line, differences, is_clean, submit
from workers.celery_app import create_app
from zdb.config import Settings
from zdb.db import engine_for
from zdb.recalculation.recalculate import LOCK_KEY
from zdb.timeline.models import RecalcState
from zdb.tournaments.models import TournamentRecord

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="the drills stop a Redis of their own"),
]

#: club round robins the template's time line holds, waiting for their first evaluation
_BACKLOG = 400
_PLAYERS = "ABCDEFGH"


#: the holder of the recalculation's lock, where a connection of the same process waits for a lock
_WAITING_HOLDER = text(
    "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
    "WHERE l.locktype = 'advisory' AND l.objid = :key AND l.granted AND a.datname = current_database() "
    "AND EXISTS (SELECT 1 FROM pg_stat_activity w WHERE w.pid = a.pid AND w.wait_event_type = 'Lock')"
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait(condition: Callable[[], bool], timeout: float, what: str) -> float:
    """Seconds until ``condition`` holds."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if condition():
            return time.monotonic() - started
        time.sleep(0.05)
    pytest.fail(f"timed out after {timeout} s waiting for {what}")


def _stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Stop a process started in a session of its own, with its children."""
    if process.poll() is None:
        os.killpg(process.pid, sig)
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


class Redis:
    """A Redis server of the drills' own (the machine's is shared): it may be stopped."""

    def __init__(self, folder: Path) -> None:
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        _wait(self.answers, 10, "the drills' Redis")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def unacknowledged_overdue(self, visibility_timeout: float) -> Callable[[], bool]:
        """A condition: some message delivered but not acknowledged is older than the
        visibility timeout, by the broker's clock (kombu's index of unacknowledged messages
        holds each one's delivery time)."""
        client = redis_client.Redis.from_url(self.url)

        def overdue() -> bool:
            seconds, micros = client.time()
            oldest = client.zrange("unacked_index", 0, 0, withscores=True)
            return bool(oldest) and seconds + micros / 1e6 - oldest[0][1] > visibility_timeout

        return overdue

    def flush(self) -> None:
        """Nothing of an earlier drill waits in the queue."""
        redis_client.Redis.from_url(self.url).flushall()

    def stop(self) -> None:
        if self.process is not None:
            _stop(self.process, signal.SIGKILL)
            self.process = None


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Redis]:
    redis = Redis(tmp_path_factory.mktemp("redis"))
    redis.start()
    yield redis
    redis.stop()


@pytest.fixture(scope="module")
def drill_template(postgres_server: str, postgres_template: str) -> Iterator[tuple[str, World]]:
    """The world and the unevaluated backlog, once; the world's tokens and person numbers."""
    name = f"zdb_drills_{uuid.uuid4().hex[:8]}"
    with _admin(postgres_server) as admin:
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{postgres_template}"')
    url = _with_database(postgres_server, name)
    world = build_world(url)
    backlog = big_time_line(_BACKLOG)
    for event in backlog["events"]:
        event["id"] += 1000  # after the world's tournament ids
    submit(url, backlog)
    world.client.close()
    engine_for(url).dispose()
    yield name, world
    with _admin(postgres_server) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class Production:
    """One drill's service: its database (a clone of the template), the API and the workers."""

    url: str
    world: World
    redis: Redis
    log: Path
    api: str = ""
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    accepted: dict[int, int] = field(default_factory=dict)  # tournament id -> latest version
    settings: dict[str, str] = field(default_factory=dict)  # more of the environment

    def environment(self) -> dict[str, str]:
        return {
            **os.environ,
            "ZDB_DATABASE_URL": self.url,
            "ZDB_BROKER_URL": self.redis.url,
            "ZDB_SWEEP_SECONDS": "1",
            "ZDB_RATE_LIMIT_WRITES": "100000/minute",
            "ZDB_RATE_LIMIT_READS": "100000/minute",
            **self.settings,
        }

    def _start(self, *arguments: str) -> subprocess.Popen[bytes]:
        with self.log.open("ab") as output:
            process = subprocess.Popen(
                [sys.executable, "-m", "zdb", *arguments],
                cwd=ROOT,
                env=self.environment(),
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.processes.append(process)
        return process

    def serve(self) -> None:
        port = _free_port()
        self._start("serve", "--port", str(port))
        self.api = f"http://127.0.0.1:{port}/api/v1"

        def live() -> bool:
            try:
                return httpx.get(f"{self.api}/health/live", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        _wait(live, 30, "the API")

    def worker(self, *, beat: bool = True) -> subprocess.Popen[bytes]:
        return self._start("worker", "--loglevel=warning", "--beat" if beat else "--no-beat")

    def worker_ready(self) -> bool:
        """A worker answers the broker's ping: it is consuming, past its start-up."""
        app = create_app(Settings(broker_url=self.redis.url))
        try:
            return bool(app.control.ping(timeout=0.5))
        finally:
            app.close()

    def send(self, k: int, correcting: int | None = None) -> httpx.Response:
        """Tournament ``k``: four of the world's players, a round robin ending on a day of 2018
        (late: years of the time line follow it); ``correcting``: as a correction of that id."""
        end = date(2018, 1, 7) + timedelta(days=7 * k)
        players = [{"pkz": self.world.pkz[_PLAYERS[(k + j) % len(_PLAYERS)]]} for j in range(4)]
        games = _games(4)
        if correcting is not None:
            games[0] = {**games[0], "result": "0-1" if games[0]["result"] != "0-1" else "1-0"}
        body = {
            "acronym": "DRL",
            "name": f"Drill {k}",
            "federation": "C03",
            "end_date": end.isoformat(),
            "start_date": (end - timedelta(days=2)).isoformat(),
            "round_dates": [(end - timedelta(days=d)).isoformat() for d in (2, 1, 0)],
            "time_control": "40/5400+30:1800+30",
            "players": players,
            "games": games,
        }
        headers = {"Authorization": f"Bearer {self.world.tokens['referee_c']}"}
        if correcting is None:
            answer = httpx.post(f"{self.api}/tournaments", json=body, headers=headers, timeout=60)
        else:
            answer = httpx.put(f"{self.api}/tournaments/{correcting}", json=body, headers=headers, timeout=60)
        if answer.status_code in (200, 201):
            self.accepted[answer.json()["id"]] = answer.json()["version"]
        return answer

    def running(self) -> bool:
        with engine_for(self.url).connect() as connection:
            return bool(connection.execute(select(RecalcState.progress_done).where(RecalcState.id == 1)).scalar())

    @contextmanager
    def history_held(self) -> Iterator[None]:
        """The history table locked against writers until the block ends: a run reads what it
        needs, then waits at its first write to the history, holding the recalculation's lock."""
        with engine_for(self.url).connect() as connection:
            connection.execute(text("LOCK TABLE rating_history IN EXCLUSIVE MODE"))
            yield
            connection.commit()

    def waiting_run(self) -> str | None:
        """The application name of the process whose run holds the recalculation's lock and
        waits for a table lock ("" where it set none), None while there is no such run."""
        with engine_for(self.url).connect() as connection:
            return connection.execute(_WAITING_HOLDER, {"key": LOCK_KEY}).scalar()

    def lock_released(self) -> bool:
        with engine_for(self.url).connect() as connection:
            held = connection.execute(
                text(
                    "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database "
                    "WHERE l.locktype = 'advisory' AND l.objid = :key AND d.datname = current_database()"
                ),
                {"key": LOCK_KEY},
            ).scalar()
        return not held

    def consistent(self) -> bool:
        return is_clean(self.url)

    def assert_nothing_lost(self, drill: str, seconds: float, capsys: pytest.CaptureFixture[str]) -> None:
        assert differences(self.url) == []  # what `zdb verify` runs: every figure recomputed and compared
        with engine_for(self.url).connect() as connection:
            stored = connection.execute(
                select(TournamentRecord.id, TournamentRecord.current_version, TournamentRecord.evaluated_version).where(
                    TournamentRecord.id.in_(self.accepted)
                )
            )
            evaluated = {tid: (current, done) for tid, current, done in stored}
        assert evaluated == {tid: (version, version) for tid, version in self.accepted.items()}
        with capsys.disabled():
            print(f"\n[drill] {drill}: consistent {seconds:.1f} s later; {len(self.accepted)} submissions evaluated")


@pytest.fixture
def production(
    postgres_server: str,
    drill_template: tuple[str, World],
    broker: Redis,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> Iterator[Production]:
    template, world = drill_template
    name = f"zdb_drill_{uuid.uuid4().hex[:12]}"
    with _admin(postgres_server) as admin:
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    if not broker.answers():
        broker.start()
    broker.flush()
    drill = Production(_with_database(postgres_server, name), world, broker, tmp_path / "services.log")
    try:
        yield drill
    finally:
        for process in reversed(drill.processes):
            _stop(process, signal.SIGKILL)
        engine_for(drill.url).dispose()
        with _admin(postgres_server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        # the whole log where a drill failed, its end where it passed
        failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
        print(drill.log.read_text(errors="replace")[-(200_000 if failed else 3000) :])


def _all_accepted(answers: list[httpx.Response]) -> None:
    refused = [(a.status_code, a.text[:300]) for a in answers if a.status_code not in (200, 201)]
    assert not refused


def test_worker_killed_mid_run(production: Production, capsys: pytest.CaptureFixture[str]) -> None:
    production.serve()
    with production.history_held():
        _all_accepted([production.send(k) for k in range(4)])  # queued: no worker runs yet
        first = production.worker()
        _wait(lambda: production.waiting_run() is not None, 60, "the run")
        _stop(first, signal.SIGKILL)  # the worker and its pool process: no clean-up, no acknowledgement
        killed = time.monotonic()
    _wait(production.lock_released, 60, "the killed run's rollback")
    assert not production.consistent()
    production.worker()
    _wait(production.consistent, 60, "a consistent database")
    production.assert_nothing_lost("worker killed mid-run", time.monotonic() - killed, capsys)


def test_a_task_whose_worker_died_is_delivered_again(
    production: Production, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without beat nothing but the broker can start the run again: the unacknowledged message
    comes back after the visibility timeout (here 2 s)."""
    production.settings["ZDB_BROKER_VISIBILITY_TIMEOUT"] = "2"
    with production.history_held():
        first = production.worker(beat=False)
        create_app(Settings(broker_url=production.redis.url)).send_task("zdb.recalculate")
        _wait(lambda: production.waiting_run() is not None, 60, "the run")
        _stop(first, signal.SIGKILL)
        killed = time.monotonic()
    _wait(production.lock_released, 60, "the killed run's rollback")
    assert not production.consistent()
    # A worker looks for overdue messages when it starts, then only every tenth of its checks
    # 10 s apart (kombu's Redis transport): started before the message is overdue, the next
    # worker would take it back 100 s later. It starts as a worker restarted after a crash
    # usually does, once the message's visibility timeout has passed.
    _wait(production.redis.unacknowledged_overdue(2), 30, "the message overdue")
    production.worker(beat=False)
    _wait(production.consistent, 60, "the message delivered again")
    production.serve()
    production.assert_nothing_lost("a dead worker's message delivered again", time.monotonic() - killed, capsys)


def test_broker_down_during_submissions(production: Production, capsys: pytest.CaptureFixture[str]) -> None:
    worker = production.worker()
    production.serve()
    # the drill is a broker lost under a running worker; one still starting up (slow on a loaded
    # machine) may give up instead of retrying, which is not what this drill measures
    _wait(production.worker_ready, 60, "the worker")
    production.redis.stop()  # the queue's messages are gone with it
    _all_accepted([production.send(k) for k in range(5)])  # accepted while the broker is down
    production.redis.start()
    back = time.monotonic()
    restarts = 0

    def consistent_under_supervision() -> bool:
        # Celery's worker on kombu's Redis transport sometimes exits when its broker goes away
        # (an AttributeError in kombu's reconnection): production runs it under a restart policy
        # (docker-compose.yml, `restart: unless-stopped`), and so does the drill.
        nonlocal worker, restarts
        if worker.poll() is not None:
            restarts += 1
            worker = production.worker()
        return production.consistent()

    _wait(consistent_under_supervision, 90, "a consistent database")
    drill = f"broker down during submissions ({restarts} worker restarts)"
    production.assert_nothing_lost(drill, time.monotonic() - back, capsys)


def test_database_connections_dropped_mid_run(production: Production, capsys: pytest.CaptureFixture[str]) -> None:
    production.serve()
    _all_accepted([production.send(k) for k in range(2)])
    production.worker()
    _wait(production.running, 60, "the run")
    with _admin(production.url) as admin:  # every other connection to the drill's database
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    dropped = time.monotonic()
    engine_for(production.url).dispose()  # this test's own connections were dropped too
    _all_accepted([production.send(k) for k in range(2, 4)])  # the API's pools reconnect
    _wait(production.consistent, 60, "a consistent database")
    production.assert_nothing_lost("database connections dropped mid-run", time.monotonic() - dropped, capsys)


def test_fifty_concurrent_late_submissions_and_corrections(
    production: Production, capsys: pytest.CaptureFixture[str]
) -> None:
    production.worker()
    production.serve()
    with ThreadPoolExecutor(max_workers=50) as pool:
        first = list(pool.map(production.send, range(15)))
        _all_accepted(first)
        corrected = [answer.json()["id"] for answer in first]
        jobs: list[Any] = [pool.submit(production.send, 15 + k) for k in range(35)]
        jobs += [pool.submit(production.send, k, tid) for k, tid in enumerate(corrected)]
        answers = [job.result() for job in jobs]
    sent = time.monotonic()
    _all_accepted(answers)
    assert len(production.accepted) == 50
    _wait(production.consistent, 60, "a consistent database")
    production.assert_nothing_lost("50 concurrent late submissions and corrections", time.monotonic() - sent, capsys)
