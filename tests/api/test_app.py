"""The application around the routers: one unit of work per request (committed once, the
recalculation dispatched only after the commit, everything rolled back on an error), a 500 that
is logged but reveals nothing, an empty database, and the recalculation started and stopped with
the application in either mode."""

from __future__ import annotations

import logging
import time
from datetime import UTC, date, datetime
from typing import Any

import psycopg
import pytest
from fastapi import APIRouter
from fastapi.testclient import TestClient
from sqlalchemy import func, select, text, update
from sqlalchemy.exc import DataError, IntegrityError

from tests.api.world import REPLAY
from tests.db.scenario import submit
from zdb.app import API_PREFIX, app_from_environment, create_app
from zdb.audit.models import AuditEntry
from zdb.audit.writer import record_entry
from zdb.auth.errors import PermissionDeniedError
from zdb.config import Settings
from zdb.db import database_key, engine_for
from zdb.endpoints.dependencies import Caller, RequestSession
from zdb.errors import ConflictError, DomainError, ValidationError, ValidationProblem
from zdb.outbox import seam
from zdb.outbox.models import OutboxMessage
from zdb.rating import InvalidInputError
from zdb.recalculation.recalculate import LOCK_KEY
from zdb.timeline import live_progress
from zdb.timeline.dirty import mark_dirty
from zdb.timeline.models import RecalcState

#: where the test route marks the time line dirty
PROBE_KEY = (date(2026, 3, 1), 1, "PRB", 1)


def _probe_app(url: str) -> TestClient:
    """The application with a test route that writes: the audit log, and the time line's flag."""
    app = create_app(Settings(database_url=url), recalculation=False)
    router = APIRouter()

    @router.post("/probe")
    def probe(session: RequestSession, caller: Caller, fail: bool = False, crash: bool = False) -> dict[str, Any]:
        record_entry(session, caller.token_id, "probe", "nothing")
        mark_dirty(session, [PROBE_KEY])
        if fail:
            raise ConflictError("refused after writing")
        if crash:
            raise RuntimeError("secret internals")
        return {"ok": True}

    app.include_router(router, prefix=API_PREFIX)
    return TestClient(app, raise_server_exceptions=False)


def _audit_count(url: str) -> int:
    with engine_for(url).connect() as connection:
        return connection.execute(select(func.count()).select_from(AuditEntry)).scalar_one()


def _outbox_kinds(url: str) -> list[str]:
    with engine_for(url).connect() as connection:
        return list(connection.execute(select(OutboxMessage.kind).order_by(OutboxMessage.id)).scalars())


def test_a_request_commits_once_and_wakes_the_relay_after_the_commit(database_url: str) -> None:
    client = _probe_app(database_url)
    seen: list[int] = []

    def dispatcher() -> None:  # reads through another connection: sees only what is committed
        with engine_for(database_url).connect() as connection:
            seen.append(connection.execute(select(RecalcState.generation)).scalar_one())

    seam.set_waker(engine_for(database_url), dispatcher)
    try:
        assert client.post("/api/v1/probe").json() == {"ok": True}
        assert seen == [1]  # the change was committed when the relay was woken
        assert _audit_count(database_url) == 1
        assert _outbox_kinds(database_url) == ["recalculate"]  # the request, committed with the change
        refused = client.post("/api/v1/probe", params={"fail": True})
        assert refused.status_code == 409 and refused.json()["detail"] == "refused after writing"
        assert seen == [1] and _audit_count(database_url) == 1  # rolled back, nobody woken
        assert _outbox_kinds(database_url) == ["recalculate"]  # and its outbox message rolled back with it
    finally:
        seam.clear_waker(engine_for(database_url))


def test_a_bug_is_logged_and_answered_without_internals(sqlite_url: str, caplog: pytest.LogCaptureFixture) -> None:
    client = _probe_app(sqlite_url)
    with caplog.at_level(logging.ERROR, logger="zdb.api.problems"):
        answer = client.post("/api/v1/probe", params={"crash": True})
    assert answer.status_code == 500 and answer.headers["content-type"] == "application/problem+json"
    assert "secret" not in answer.text and answer.json()["type"] == "/api/v1/problems/internal-error"
    assert any("secret internals" in (r.exc_text or str(r.exc_info)) for r in caplog.records)
    assert _audit_count(sqlite_url) == 0


def test_a_database_out_of_reach_is_answered_503(caplog: pytest.LogCaptureFixture) -> None:
    # Nothing listens on port 1: every connection is refused, as while the server restarts.
    app = create_app(Settings(database_url="postgresql+psycopg://postgres@127.0.0.1:1/zdb"), recalculation=False)
    with TestClient(app) as client, caplog.at_level(logging.WARNING, logger="zdb.api.problems"):
        for path in ("/api/v1/health", "/api/v1/tournaments", "/api/v1/recalculation"):
            answer = client.get(path)
            assert answer.status_code == 503, path
            assert answer.json()["type"] == "/api/v1/problems/unavailable" and answer.headers["retry-after"] == "5"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # an outage is no bug


@pytest.mark.parametrize(
    ("error", "status", "kind", "errors"),
    [
        (
            ValidationError([ValidationProblem("players[2].pid", "listed twice"), ValidationProblem("line 7", "bad")]),
            422,
            "invalid-submission",
            [{"place": "players[2].pid", "message": "listed twice"}, {"place": "line 7", "message": "bad"}],
        ),
        (
            InvalidInputError("games[0].white", "unknown player 'X'"),
            422,
            "invalid-submission",
            [{"place": "games[0].white", "message": "unknown player 'X'"}],
        ),
        (PermissionDeniedError("not in your region"), 403, "forbidden", []),
        (DomainError("something else"), 400, "bad-request", []),
        (IntegrityError("INSERT", {}, Exception("duplicate key")), 409, "conflict", []),
        (DataError("INSERT", {}, Exception("NUL (0x00) bytes")), 422, "invalid-submission", []),
        # The asynchronous read pool raises psycopg's errors unwrapped.
        (psycopg.errors.UniqueViolation("duplicate key"), 409, "conflict", []),
        (psycopg.errors.NumericValueOutOfRange("integer out of range"), 422, "invalid-submission", []),
    ],
)
def test_domain_errors_map_to_problems(
    sqlite_url: str, error: Exception, status: int, kind: str, errors: list[dict[str, str]]
) -> None:
    app = create_app(Settings(database_url=sqlite_url), recalculation=False)

    @app.get("/api/v1/raise")
    def raising() -> None:
        raise error

    body = TestClient(app).get("/api/v1/raise").json()
    assert (body["status"], body["type"], body["errors"]) == (status, f"/api/v1/problems/{kind}", errors)


def test_an_empty_database(client: TestClient) -> None:
    for path in ("/players", "/tournaments", "/clubs", "/federations", "/ratings/top"):
        assert client.get(f"/api/v1{path}").json() == {"items": [], "total": 0, "limit": 50, "offset": 0}
    status = client.get("/api/v1/recalculation").json()
    assert (status["state"], status["last_run"], status["dirty_position"]) == ("idle", None, None)
    feed = client.get("/api/v1/ratings/changes", params={"changed_since": "2026-01-01T00:00:00Z"}).json()
    assert feed["total"] == 0 and feed["next_changed_since"] == "2026-01-01T00:00:00Z"
    assert client.get("/api/v1/health").json() == {
        "status": "ok",
        "database": "ok",
        "broker": "none",
        "last_sweep": None,
    }
    assert client.get("/api/v1/docs").status_code == 200


def _marked_running(url: str) -> None:
    """The marks a run writes as it starts (``zdb.recalculation.run``)."""
    with engine_for(url).begin() as connection:
        connection.execute(
            update(RecalcState).values(running_since=datetime.now(UTC), progress_done=2, progress_total=5)
        )


def test_a_run_in_progress(client: TestClient, database_url: str) -> None:
    submit(database_url, {"initial_states": REPLAY["initial_states"], "events": REPLAY["events"]})
    engine = engine_for(database_url)
    if engine.dialect.name == "postgresql":
        _marked_running(database_url)
    else:  # the embedded run is a thread of the serving process: its progress is in memory
        live_progress.started(database_key(engine), datetime.now(UTC))
        live_progress.advanced(database_key(engine), 2, 5)
    with engine.connect() as run:
        if run.dialect.name == "postgresql":  # a live run holds the lock
            run.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
        status = client.get("/api/v1/recalculation").json()
        assert status["state"] == "running" and status["progress"] == {"done": 2, "total": 5}
        listed = client.get("/api/v1/tournaments", params={"status": "evaluating"}).json()
        assert listed["total"] == len(REPLAY["events"]) and {t["status"] for t in listed["items"]} == {"evaluating"}
        assert client.get("/api/v1/tournaments", params={"status": "received"}).json()["total"] == 0
        run.rollback()
    live_progress.finished(database_key(engine))  # the run is gone (its lock with it): the change still waits
    assert client.get("/api/v1/recalculation").json()["state"] == "pending"


def test_a_run_killed_half_way_is_not_shown_running(postgres_url: str) -> None:
    # Its marks stay behind (nothing cleared them), but no transaction holds the lock.
    client = TestClient(create_app(Settings(database_url=postgres_url), recalculation=False))
    submit(postgres_url, {"initial_states": REPLAY["initial_states"], "events": REPLAY["events"]})
    _marked_running(postgres_url)
    status = client.get("/api/v1/recalculation").json()
    assert (status["state"], status["running_since"], status["progress"]) == ("pending", None, None)
    listed = client.get("/api/v1/tournaments", params={"status": "received"}).json()
    assert listed["total"] == len(REPLAY["events"])


def test_the_embedded_recalculation_runs_with_the_application(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url, sweep_seconds=0.2))
    with TestClient(app) as client:
        submit(database_url, {"initial_states": REPLAY["initial_states"], "events": REPLAY["events"]})
        deadline = time.monotonic() + 30
        while client.get("/api/v1/recalculation").json()["state"] != "idle" and time.monotonic() < deadline:
            time.sleep(0.05)
        status = client.get("/api/v1/recalculation").json()
        assert status["state"] == "idle" and status["last_run"]["evaluated"] == len(REPLAY["expected"]["reports"])
        assert client.get("/api/v1/ratings/top").json()["total"] == len(REPLAY["expected"]["final_states"])
    assert database_key(engine_for(database_url)) not in seam._wakers  # stopped with the application


def test_production_wakes_the_celery_relay(sqlite_url: str, redis_url: str) -> None:
    from workers.outbox_tasks import wake_relay

    app = create_app(Settings(database_url=sqlite_url, broker_url=redis_url))
    key = database_key(engine_for(sqlite_url))
    with TestClient(app):
        assert seam._wakers[key] is wake_relay
    assert key not in seam._wakers


def test_the_application_from_the_environment(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZDB_DATABASE_URL", sqlite_url)
    monkeypatch.delenv("ZDB_BROKER_URL", raising=False)
    app = app_from_environment()
    assert app.state.settings.database_url == sqlite_url and app.state.settings.embedded
