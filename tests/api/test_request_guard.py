"""The request guard (``zdb.api.request_guard``): bodies over their endpoint's limit are refused
with 413, writes without a token with 401, both before the body is read — through the real
application, with bodies streamed as a client sends them."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from zdb.app import create_app
from zdb.auth.service import create_token
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work

_CHUNK = 4096


@dataclass
class Stream:
    """A body sent in chunks of 4 KB without a Content-Length; counts the chunks the server took."""

    chunks: int
    taken: int = 0
    first: bytes = field(default=b"[")

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for number in range(self.chunks):
            self.taken += 1
            yield (self.first if number == 0 else b"") + b"1," * (_CHUNK // 2)


def _send(
    app: FastAPI, method: str, path: str, *, content: Any, headers: dict[str, str] | None = None
) -> httpx.Response:
    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://zdb.test") as client:
            return await client.request(method, path, content=content, headers=headers)

    return asyncio.run(go())


@pytest.fixture
def app(postgres_url: str) -> FastAPI:
    settings = Settings(
        database_url=postgres_url, max_upload_bytes=64 * 1024, max_small_body_bytes=16 * 1024, max_body_bytes=32 * 1024
    )
    return create_app(settings, recalculation=False)


def _problem(answer: httpx.Response, status: int, slug: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = answer.json()
    assert body["type"] == f"/api/v1/problems/{slug}" and body["status"] == status
    return body


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/v1/tournaments"),
        ("POST", "/api/v1/tournaments/trf"),
        ("POST", "/api/v1/tournaments/preview"),
        ("PUT", "/api/v1/tournaments/1"),
        ("PUT", "/api/v1/tournaments/1/trf"),
        ("DELETE", "/api/v1/tournaments/1"),
    ],
)
def test_a_write_without_a_token_is_refused_before_its_body_is_read(app: FastAPI, method: str, path: str) -> None:
    body = Stream(chunks=8)
    answer = _send(app, method, path, content=body)
    problem = _problem(answer, 401, "unauthorized")
    assert "Bearer" in problem["detail"] and answer.headers["www-authenticate"].startswith("Bearer")
    assert body.taken == 0


def test_a_write_with_another_scheme_is_refused_too(app: FastAPI) -> None:
    body = Stream(chunks=8)
    answer = _send(app, "POST", "/api/v1/tournaments", content=body, headers={"Authorization": "Basic YTpi"})
    _problem(answer, 401, "unauthorized")
    assert body.taken == 0


def test_a_write_with_an_unknown_token_is_refused_before_its_body_is_read(app: FastAPI) -> None:
    body = Stream(chunks=8)
    answer = _send(
        app,
        "POST",
        "/api/v1/tournaments",
        content=body,
        headers={"Authorization": "Bearer nonsense", "Content-Type": "application/json"},
    )
    problem = _problem(answer, 401, "unauthorized")
    assert problem["detail"] == "the token is not known"
    assert body.taken == 0


def test_a_declared_length_over_the_limit_is_refused_unread(app: FastAPI, postgres_url: str) -> None:
    with unit_of_work(engine_for(postgres_url)) as session:
        secret = create_token(session, "admin", label="guard").secret
    body = b"[" + b"1," * (40 * 1024) + b"1]"  # 80 KB, over the upload limit of 64 KB
    answer = _send(app, "POST", "/api/v1/tournaments/trf", content=body, headers={"Authorization": f"Bearer {secret}"})
    problem = _problem(answer, 413, "payload-too-large")
    assert str(64 * 1024) in problem["detail"] and problem["instance"] == "/api/v1/tournaments/trf"


def test_a_streamed_body_is_cut_off_at_the_limit(app: FastAPI) -> None:
    # The public simulator: 16 KB here; the client sends 1 MB in chunks without a Content-Length.
    body = Stream(chunks=256)
    answer = _send(app, "POST", "/api/v1/simulator", content=body, headers={"Content-Type": "application/json"})
    _problem(answer, 413, "payload-too-large")
    assert body.taken <= 16 * 1024 // _CHUNK + 1


def test_a_streamed_upload_over_its_limit_is_refused(app: FastAPI, postgres_url: str) -> None:
    with unit_of_work(engine_for(postgres_url)) as session:
        secret = create_token(session, "admin", label="guard").secret
    body = Stream(chunks=64)
    answer = _send(app, "POST", "/api/v1/tournaments/trf", content=body, headers={"Authorization": f"Bearer {secret}"})
    _problem(answer, 413, "payload-too-large")
    assert body.taken <= 64 * 1024 // _CHUNK + 1


def test_other_endpoints_take_the_default_limit(app: FastAPI) -> None:
    # 48 KB: over the default of 32 KB here, under the upload limit of 64 KB.
    body = b"x" * (48 * 1024)
    _problem(_send(app, "POST", "/api/v1/me", content=body), 413, "payload-too-large")
    answer = _send(app, "POST", "/referee/upload", content=body)
    assert answer.status_code != 413


def test_bodies_within_the_limits_are_answered_as_before(app: FastAPI) -> None:
    simulation = {"rating": 1600, "index": 5, "birth_year": 1980, "opponents": [1700], "end_date": "2026-01-01"}
    answer = _send(
        app,
        "POST",
        "/api/v1/simulator",
        content=json.dumps(simulation).encode(),
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 200, answer.text
    # A method an endpoint does not have stays a 405, token or not.
    assert _send(app, "DELETE", "/api/v1/players", content=b"").status_code == 405


def test_the_limits_are_settings() -> None:
    settings = Settings.from_environment(
        {"ZDB_MAX_UPLOAD_BYTES": "1000", "ZDB_MAX_SMALL_BODY_BYTES": "10", "ZDB_MAX_BODY_BYTES": "100"}
    )
    assert (settings.max_upload_bytes, settings.max_small_body_bytes, settings.max_body_bytes) == (1000, 10, 100)
    defaults = Settings.from_environment({})
    assert (defaults.max_upload_bytes, defaults.max_small_body_bytes) == (16 * 1024 * 1024, 64 * 1024)
    assert defaults.max_body_bytes == 1024 * 1024


def _token_writes(app: FastAPI) -> list[tuple[str, str]]:
    """Every write of the OpenAPI document that needs a token (its security does not allow the
    public: ``{}``), path parameters filled in."""
    found = []
    for path, operations in app.openapi()["paths"].items():
        for method, operation in operations.items():
            if method in ("post", "put", "patch", "delete") and {} not in operation.get("security", [{}]):
                found.append((method.upper(), re.sub(r"\{[^}]+\}", "1", path)))
    return found


def test_every_write_of_the_document_is_walked(app: FastAPI) -> None:
    writes = _token_writes(app)
    assert ("POST", "/api/v1/lists/imports") in writes and ("POST", "/api/v1/lists/fide-imports") in writes
    assert ("PATCH", "/api/v1/players/1") in writes and ("POST", "/api/v1/editions") in writes
    assert all(path != "/api/v1/simulator" for _, path in writes)  # public: computes, stores nothing
    assert len(writes) >= 24


@pytest.mark.parametrize("authorization", [None, "Bearer zdb_nobody-knows-this-token", "Bearer x"])
def test_no_write_reads_a_large_body_without_a_valid_token(app: FastAPI, authorization: str | None) -> None:
    # 256 chunks of 4 KB (1 MB, under the list uploads' limit) sent as a client streams them; a
    # multipart type too, so that the list uploads would parse their form if they were reached.
    headers = {"Content-Type": "multipart/form-data; boundary=zdb"}
    if authorization is not None:
        headers["Authorization"] = authorization
    for method, path in _token_writes(app):
        body = Stream(chunks=256)
        answer = _send(app, method, path, content=body, headers=headers)
        assert answer.status_code == 401, (method, path, answer.text)
        assert body.taken <= 1, (method, path, body.taken)
