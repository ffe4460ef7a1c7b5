"""Rate limits (``zdb.api.rate_limits``) through the real application: reads per address, the
club pull per address, writes per token, failed authentications per address — counted in
memory (embedded) and in Redis (production, one count for every serving process)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from zdb.app import create_app
from zdb.auth.service import create_token
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work

#: a form post names its sender (zdb.web.referee_session.require_same_origin)
SIGN_IN_ORIGIN = {"Origin": "http://zdb.test"}


def _settings(database_url: str, **limits: Any) -> Settings:
    chosen = {
        "rate_limit_reads": "3/minute",
        "rate_limit_club_pull": "2/hour",
        "rate_limit_writes": "2/minute",
        "rate_limit_failed_auth": "3/minute",
    }
    return Settings(database_url=database_url, rate_limits=True, **(chosen | limits))


def _send(
    app: FastAPI, requests: list[tuple[str, str, dict[str, str]]], address: str = "192.0.2.1"
) -> list[httpx.Response]:
    """The requests one after another, from ``address``."""

    async def go() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app, client=(address, 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://zdb.test") as client:
            return [await client.request(method, path, headers=headers) for method, path, headers in requests]

    return asyncio.run(go())


def _statuses(answers: list[httpx.Response]) -> list[int]:
    return [answer.status_code for answer in answers]


def _is_429(answer: httpx.Response) -> None:
    assert answer.status_code == 429
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["type"] == "/api/v1/problems/too-many-requests"
    assert int(answer.headers["retry-after"]) >= 1


@pytest.fixture
def app(postgres_url: str) -> FastAPI:
    return create_app(_settings(postgres_url), recalculation=False)


def test_reads_are_limited_per_address(app: FastAPI) -> None:
    answers = _send(app, [("GET", "/api/v1/federations", {})] * 4)
    assert _statuses(answers)[:3] == [200, 200, 200]
    _is_429(answers[3])
    assert _statuses(_send(app, [("GET", "/api/v1/federations", {})], address="192.0.2.2")) == [200]


def test_the_health_check_is_never_limited(app: FastAPI) -> None:
    assert _statuses(_send(app, [("GET", "/api/v1/health", {})] * 5)) == [200] * 5


def test_the_club_pull_has_its_own_limit(app: FastAPI) -> None:
    answers = _send(app, [("GET", "/api/v1/clubs/C0327/members.csv", {})] * 3 + [("GET", "/api/v1/federations", {})])
    assert answers[0].status_code != 429 and answers[1].status_code != 429
    _is_429(answers[2])
    assert answers[3].status_code == 200  # the other reads are counted apart


def test_failed_authentications_are_limited_per_address(postgres_url: str) -> None:
    app = create_app(_settings(postgres_url, rate_limit_reads="100/minute"), recalculation=False)
    with unit_of_work(engine_for(postgres_url)) as session:
        secret = create_token(session, "admin", label="rate").secret
    wrong = [("GET", "/api/v1/federations", {"Authorization": f"Bearer wrong-{n}"}) for n in range(3)]
    answers = _send(app, [*wrong, ("GET", "/api/v1/me", {"Authorization": f"Bearer {secret}"})], address="192.0.2.9")
    assert _statuses(answers)[:3] == [401, 401, 401]
    _is_429(answers[3])  # even the right token, from an address that has guessed enough
    # a public read of that address is not a guess
    assert _statuses(_send(app, [("GET", "/api/v1/federations", {})], address="192.0.2.9")) == [200]


def test_writes_are_limited_per_token(postgres_url: str) -> None:
    app = create_app(_settings(postgres_url, rate_limit_reads="100/minute"), recalculation=False)
    with unit_of_work(engine_for(postgres_url)) as session:
        first = create_token(session, "admin", label="one").secret
        second = create_token(session, "admin", label="two").secret
    withdraw = ("DELETE", "/api/v1/tournaments/999")
    answers = _send(app, [(*withdraw, {"Authorization": f"Bearer {first}"})] * 3)
    assert _statuses(answers)[:2] == [404, 404]
    _is_429(answers[2])
    assert _statuses(_send(app, [(*withdraw, {"Authorization": f"Bearer {second}"})])) == [404]


def test_the_counts_live_in_redis_for_every_process(postgres_url: str, redis_url: str) -> None:
    # Two applications (two serving processes) on one Redis count together.
    settings = _settings(postgres_url, rate_limit_storage=redis_url)
    one, two = (create_app(settings, recalculation=False) for _ in range(2))
    address = f"198.51.100.{uuid.uuid4().int % 250 + 1}"
    key = uuid.uuid4().hex
    path = f"/api/v1/clubs/C{key[:4]}/ratings"  # a club pull: 2 an hour
    answers = _send(one, [("GET", path, {})], address) + _send(two, [("GET", path, {})] * 2, address)
    assert 429 not in _statuses(answers[:2])
    _is_429(answers[2])


def test_the_limits_are_settings() -> None:
    service = Settings.from_environment({})
    assert service.rate_limits and service.rate_limit_club_pull == "120/hour"
    assert not Settings.from_environment({"ZDB_RATE_LIMITS": "off"}).rate_limits
    chosen = Settings.from_environment({"ZDB_RATE_LIMIT_READS": "5/second", "ZDB_RATE_LIMIT_STORAGE": "memory://"})
    assert (chosen.rate_limit_reads, chosen.rate_limit_storage) == ("5/second", "memory://")


def test_failed_sign_ins_on_the_pages_count_as_failed_authentications(sqlite_url: str) -> None:
    app = create_app(_settings(sqlite_url, rate_limit_reads="100/minute"), recalculation=False)

    async def go() -> list[int]:
        transport = httpx.ASGITransport(app=app, client=("192.0.2.77", 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://zdb.test") as client:
            return [
                (
                    await client.post(
                        "/referee/sign-in", data={"token": f"wrong-{n}", "next": "/"}, headers=SIGN_IN_ORIGIN
                    )
                ).status_code
                for n in range(4)
            ]

    assert asyncio.run(go()) == [401, 401, 401, 429]
