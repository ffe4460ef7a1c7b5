"""Structured logs (``zdb.api.request_log``): every record of a request carries its id, which
the answer names in ``X-Request-ID``; the access line is JSON and never holds a token."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_no_log_format_writes_a_query_string(log_format: str, tmp_path: Path) -> None:
    """``zdb serve`` as deployed (uvicorn's own logging configured): a search for a name and a
    page asked with a token leave only their paths in the log, in either format."""
    port = _free_port()
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith("ZDB_")},
        "ZDB_HOME": str(tmp_path),
        "ZDB_LOG_FORMAT": log_format,
    }
    zdb = Path(sys.executable).with_name("zdb")
    server = subprocess.Popen(
        [str(zdb), "serve", "--port", str(port)],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:  # until the service answers (bounded), never a fixed sleep
            try:
                httpx.get(f"{base}/api/v1/health/live", timeout=2)
                break
            except httpx.TransportError:
                assert server.poll() is None and time.monotonic() < deadline, "the service did not start"
                time.sleep(0.1)
        assert httpx.get(f"{base}/api/v1/players", params={"name": "mueller"}).status_code == 200
        httpx.get(f"{base}/staff/lists", params={"token": "zdb_SECRETTOKEN"})
        httpx.get(f"{base}/", params={"q": "Schmidt"})
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    assert "/api/v1/players" in output and "/staff/lists" in output  # the access lines are written
    for leaked in ("mueller", "SECRETTOKEN", "Schmidt", "name=", "token=", "q="):
        assert leaked not in output, output
