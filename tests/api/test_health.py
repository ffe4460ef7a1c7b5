"""Health: liveness asks for nothing, readiness for the database and (in production) the
broker, each reported on its own; and the read pool recovers from a restart of PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from fastapi.testclient import TestClient

from zdb.app import create_app
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.service_beats import SWEEP, record_beat

_NOWHERE_DB = "postgresql+psycopg://postgres@127.0.0.1:1/zdb"  # nothing listens on port 1
_NOWHERE_REDIS = "redis://127.0.0.1:1/0"


def _client(**settings: Any) -> TestClient:
    return TestClient(create_app(Settings(**settings), recalculation=False))


def _unavailable(answer: Any) -> list[str]:
    assert answer.status_code == 503 and answer.headers["retry-after"]
    body = answer.json()
    assert body["type"] == "/api/v1/problems/unavailable"
    return [error["place"] for error in body["errors"]]


def test_embedded_health_names_database_and_broker(sqlite_url: str) -> None:
    client = _client(database_url=sqlite_url)
    for path in ("/api/v1/health", "/api/v1/health/ready"):
        assert client.get(path).json() == {"status": "ok", "database": "ok", "broker": "none", "last_sweep": None}
    assert client.get("/api/v1/health/live").json() == {"status": "ok"}


def test_production_health_asks_the_broker(postgres_url: str, redis_url: str) -> None:
    client = _client(database_url=postgres_url, broker_url=redis_url)
    answer = client.get("/api/v1/health/ready").json()
    assert answer == {"status": "ok", "database": "ok", "broker": "ok", "last_sweep": None}
    away = _client(database_url=postgres_url, broker_url=_NOWHERE_REDIS)
    assert _unavailable(away.get("/api/v1/health/ready")) == ["broker"]
    assert _unavailable(away.get("/api/v1/health")) == ["broker"]
    assert away.get("/api/v1/health/live").status_code == 200


def test_a_stale_sweep_fails_readiness_and_shows_in_the_metrics(postgres_url: str, redis_url: str) -> None:
    # Beat (or the worker) stopped: the sweep last ran a minute ago, with a bound of 30 seconds.
    with unit_of_work(engine_for(postgres_url)) as session:
        record_beat(session, SWEEP, datetime.now(UTC) - timedelta(seconds=60))
    client = _client(database_url=postgres_url, broker_url=redis_url, sweep_stale_seconds=30)
    answer = client.get("/api/v1/health/ready")
    assert _unavailable(answer) == ["sweep"]
    assert "beat" in answer.json()["detail"]
    age = [line for line in client.get("/metrics").text.splitlines() if line.startswith("zdb_sweep_age_seconds ")]
    assert len(age) == 1 and float(age[0].split()[1]) >= 60
    # the sweep runs again: ready, with its time
    with unit_of_work(engine_for(postgres_url)) as session:
        record_beat(session, SWEEP)
    answer = client.get("/api/v1/health/ready")
    assert answer.status_code == 200 and answer.json()["last_sweep"] is not None
    # a fresh deployment before its first sweep has the whole bound; 0 leaves the sweep out
    assert (
        _client(database_url=postgres_url, broker_url=redis_url, sweep_stale_seconds=0)
        .get("/api/v1/health/ready")
        .status_code
        == 200
    )


def test_a_database_out_of_reach_fails_readiness_not_liveness() -> None:
    client = _client(database_url=_NOWHERE_DB, broker_url=_NOWHERE_REDIS)
    assert _unavailable(client.get("/api/v1/health/ready")) == ["database", "broker"]
    assert client.get("/api/v1/health/live").json() == {"status": "ok"}


def test_a_token_is_not_looked_at(sqlite_url: str) -> None:
    client = _client(database_url=sqlite_url)
    answer = client.get("/api/v1/health/ready", headers={"Authorization": "Bearer unknown"})
    assert answer.status_code == 200


def test_the_read_pool_recovers_from_a_restart_of_the_database(postgres_url: str) -> None:
    app = create_app(Settings(database_url=postgres_url, read_pool_size=3), recalculation=False)
    with TestClient(app) as client:
        pool = app.state.read_pool.pool
        client.portal.call(pool.wait)  # every connection of the pool is open
        assert client.get("/api/v1/players/1").status_code == 404  # a hot read, on the pool
        # A restart ends every connection of the server: the pool's are broken.
        conninfo = postgres_url.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(conninfo, autocommit=True) as admin:
            ended = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchone()
        assert ended is not None and ended[0] >= 3
        for _ in range(4):  # more than the pool has connections: each is checked before use
            assert client.get("/api/v1/players/1").status_code == 404
