"""Structured logs (``zdb.api.request_log``): every record of a request carries its id, which
the answer names in ``X-Request-ID``; the access line is JSON and never holds a token."""

from __future__ import annotations

import json
import logging

import pytest
from fastapi.testclient import TestClient

from zdb.api.request_log import JsonFormatter
from zdb.app import create_app
from zdb.config import Settings


@pytest.fixture
def client(sqlite_url: str) -> TestClient:
    return TestClient(create_app(Settings(database_url=sqlite_url), recalculation=False))


def _lines(caplog: pytest.LogCaptureFixture, logger: str) -> list[dict[str, object]]:
    formatter = JsonFormatter()
    return [json.loads(formatter.format(record)) for record in caplog.records if record.name == logger]


def test_the_access_line_carries_the_request_id_and_no_token(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="zdb.access"):
        answer = client.get("/api/v1/players?name=x", headers={"Authorization": "Bearer zdb_SECRET-token"})
    assert answer.status_code == 401
    request_id = answer.headers["x-request-id"]
    (line,) = _lines(caplog, "zdb.access")
    assert line["request_id"] == request_id and len(request_id) == 32
    assert (line["method"], line["path"], line["status"]) == ("GET", "/api/v1/players", 401)
    assert line["level"] == "info" and isinstance(line["duration_ms"], float)
    assert "SECRET" not in json.dumps(line) and "name=x" not in json.dumps(line)


def test_a_sane_client_id_is_kept_and_records_inside_the_request_carry_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The database is out of reach: the problem handler logs a warning inside the request.
    app = create_app(Settings(database_url="postgresql+psycopg://postgres@127.0.0.1:1/zdb"), recalculation=False)
    with TestClient(app) as client, caplog.at_level(logging.INFO):
        answer = client.get("/api/v1/tournaments", headers={"X-Request-ID": "abc-123"})
        unsafe = client.get("/api/v1/tournaments", headers={"X-Request-ID": "a b\\nforged"})
    assert answer.status_code == 503 and answer.headers["x-request-id"] == "abc-123"
    assert unsafe.headers["x-request-id"] != "a b\\nforged"
    (warning, _) = _lines(caplog, "zdb.api.problems")
    assert warning["request_id"] == "abc-123" and warning["level"] == "warning"
