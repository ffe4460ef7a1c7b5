"""``/metrics`` (``zdb.api.metrics``): request latency per route template, accepted
submissions, and the recalculation's last run, in Prometheus' text format."""

from __future__ import annotations

import re
import time

import redis
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from tests.api.test_submissions import _body, _headers
from tests.api.world import World
from tests.db.scenario import recalc
from zdb.api.metrics import Metrics, route_templates
from zdb.app import _API_ROUTERS, API_PREFIX
from zdb.db import engine_for


def _samples(world: World) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    answer = world.client.get("/metrics")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def _count(samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_requests_are_timed_per_route_template(fresh: World) -> None:
    for pkz in (fresh.pkz["A"], fresh.pkz["B"], 99999999):
        fresh.client.get(f"/api/v1/players/{pkz}")
    fresh.client.post("/api/v1/tournaments/preview", json={})  # a literal path before {tournament_id}
    fresh.client.get("/api/v1/tournaments/preview")  # but it has no GET: this one is {tournament_id}
    samples = _samples(fresh)
    count = "zdb_http_request_duration_seconds_count"
    route = "/api/v1/players/{pkz}"
    assert _count(samples, count, method="GET", route=route, status="200") == 2
    assert _count(samples, count, method="GET", route=route, status="404") == 1
    assert _count(samples, count, method="POST", route="/api/v1/tournaments/preview", status="401") == 1
    assert _count(samples, count, method="GET", route="/api/v1/tournaments/{tournament_id}", status="422") == 1
    # one series per endpoint, never one per player
    assert not [labels for name, labels in samples if any(re.search(r"\d{5}", value) for _, value in labels)]


def test_the_route_templates_are_the_openapi_documents_paths(client: TestClient) -> None:
    """The templates are read from the API's routers (cheap), not from the OpenAPI document
    (most of a second per application): both must list the same paths with the same methods."""
    document = client.get("/api/v1/openapi.json").json()["paths"]
    listed = {path: frozenset(method.upper() for method in operations) for path, operations in document.items()}
    assert route_templates(_API_ROUTERS, API_PREFIX) == listed


def test_timing_a_request_draws_no_openapi_document(client: TestClient) -> None:
    """Drawing the document costs most of a second: a request, refused or answered, is timed
    without it (the document is drawn when asked for, at ``/api/v1/openapi.json``)."""
    client.get("/api/v1/players/1")
    client.post("/api/v1/tournaments", json={})  # refused before routing: no token
    assert client.app.openapi_schema is None  # type: ignore[attr-defined]
    assert client.get("/api/v1/openapi.json").status_code == 200
    assert client.app.openapi_schema is not None  # type: ignore[attr-defined]


def test_submissions_and_the_recalculation_are_counted(fresh: World) -> None:
    before = _samples(fresh)
    answer = fresh.client.post("/api/v1/tournaments", json=_body(fresh), headers=_headers(fresh, "referee_c"))
    assert answer.status_code == 201, answer.text
    refused = fresh.client.post("/api/v1/tournaments", json={}, headers=_headers(fresh, "referee_c"))
    assert refused.status_code == 422
    recalc(fresh.url)
    after = _samples(fresh)
    new_json = {"format": "json", "kind": "new"}
    assert _count(after, "zdb_submissions_total", **new_json) == _count(before, "zdb_submissions_total", **new_json) + 1
    assert _count(after, "zdb_recalculation_last_evaluated") >= 1
    assert ("zdb_recalculation_last_duration_seconds", frozenset()) in after
    assert _count(after, "zdb_recalculation_pending") == 0


def test_the_dirty_age_counts_from_the_first_waiting_change(fresh: World) -> None:
    assert _count(_samples(fresh), "zdb_recalculation_dirty_age_seconds") == 0
    answer = fresh.client.post("/api/v1/tournaments", json=_body(fresh), headers=_headers(fresh, "referee_c"))
    assert answer.status_code == 201, answer.text
    first = _count(_samples(fresh), "zdb_recalculation_dirty_age_seconds")
    assert 0 < first < 60  # counted from the submission, not from the scrape
    # The age grows while the change waits: scraped again until the clock has moved on.
    deadline = time.monotonic() + 10
    while (second := _count(_samples(fresh), "zdb_recalculation_dirty_age_seconds")) == first:
        assert time.monotonic() < deadline, "the dirty age did not grow within 10 s"
    assert first < second < 60
    recalc(fresh.url)
    assert _count(_samples(fresh), "zdb_recalculation_dirty_age_seconds") == 0


def test_the_worker_queue_length_is_read_from_a_redis_broker(fresh: World, redis_url: str) -> None:
    from zdb.config import WORKER_QUEUE

    broker = redis.Redis.from_url(redis_url)
    broker.delete(WORKER_QUEUE)
    broker.rpush(WORKER_QUEUE, "a", "b", "c")
    try:
        metrics = Metrics(engine_for(fresh.url), redis_url)
        families = {f.name: f for f in text_string_to_metric_families(metrics.exposition().decode())}
        assert families["zdb_broker_queue_length"].samples[0].value == 3
        unreachable = Metrics(engine_for(fresh.url), "redis://127.0.0.1:1/0")
        assert "zdb_broker_queue_length" not in unreachable.exposition().decode()
    finally:
        broker.delete(WORKER_QUEUE)
