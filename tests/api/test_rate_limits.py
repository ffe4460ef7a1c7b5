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
from zdb.auth.service import create_token, revoke_token
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


def test_failed_authentications_never_lock_out_a_valid_token(postgres_url: str) -> None:
    app = create_app(_settings(postgres_url, rate_limit_reads="100/minute"), recalculation=False)
    with unit_of_work(engine_for(postgres_url)) as session:
        secret = create_token(session, "admin", label="rate").secret
    wrong = [("GET", "/api/v1/federations", {"Authorization": f"Bearer wrong-{n}"}) for n in range(4)]
    right = ("GET", "/api/v1/me", {"Authorization": f"Bearer {secret}"})
    answers = _send(app, [*wrong, right, right], address="192.0.2.9")
    assert _statuses(answers)[:3] == [401, 401, 401]
    _is_429(answers[3])  # the fourth guess from that address
    assert _statuses(answers[4:]) == [200, 200]  # the admin behind the same address is not locked out
    # a public read of that address is not a guess, and another address guesses on its own count
    assert _statuses(_send(app, [("GET", "/api/v1/federations", {})], address="192.0.2.9")) == [200]
    assert _statuses(_send(app, wrong[:1], address="192.0.2.10")) == [401]


def test_a_revoked_token_is_counted_against_itself(postgres_url: str) -> None:
    app = create_app(_settings(postgres_url, rate_limit_reads="100/minute"), recalculation=False)
    with unit_of_work(engine_for(postgres_url)) as session:
        old = create_token(session, "referee", "C", label="old")
        revoke_token(session, str(old.token.id))
    revoked = ("GET", "/api/v1/me", {"Authorization": f"Bearer {old.secret}"})
    answers = _send(app, [revoked] * 4, address="192.0.2.11")
    assert _statuses(answers)[:3] == [401, 401, 401]
    _is_429(answers[3])


def _concurrent_guesses(app: FastAPI, count: int, address: str) -> list[int]:
    """``count`` requests with distinct unknown tokens from one address, all at once."""

    async def go() -> list[int]:
        transport = httpx.ASGITransport(app=app, client=(address, 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://zdb.test") as client:
            sent = [
                client.post("/api/v1/tournaments", content=b"{}", headers={"Authorization": f"Bearer guess-{n}"})
                for n in range(count)
            ]
            return [answer.status_code for answer in await asyncio.gather(*sent)]

    return asyncio.run(go())


@pytest.mark.parametrize("storage", ["memory", "redis"])
def test_exactly_the_limit_of_concurrent_guesses_gets_through(
    postgres_url: str, storage: str, request: pytest.FixtureRequest
) -> None:
    chosen = "memory://" if storage == "memory" else request.getfixturevalue("redis_url")
    settings = _settings(postgres_url, rate_limit_failed_auth="10/minute", rate_limit_storage=chosen)
    app = create_app(settings, recalculation=False)
    address = f"203.0.113.{uuid.uuid4().int % 250 + 1}"
    statuses = _concurrent_guesses(app, 30, address)
    assert sorted(statuses) == [401] * 10 + [429] * 20


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
    with unit_of_work(engine_for(sqlite_url)) as session:
        secret = create_token(session, "referee", "C", label="pages").secret

    async def go() -> list[int]:
        transport = httpx.ASGITransport(app=app, client=("192.0.2.77", 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://zdb.test") as client:
            tokens = [f"wrong-{n}" for n in range(4)] + [secret]
            return [
                (
                    await client.post("/referee/sign-in", data={"token": token, "next": "/"}, headers=SIGN_IN_ORIGIN)
                ).status_code
                for token in tokens
            ]

    # three guesses, the fourth refused; the referee behind the same address signs in
    assert asyncio.run(go()) == [401, 401, 401, 429, 303]
