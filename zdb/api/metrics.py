"""``/metrics`` in Prometheus' text format (``prometheus_client``).

* ``zdb_http_request_duration_seconds`` — a histogram per method, route template
  (``/api/v1/players/{pkz}``, never the path itself: one series per endpoint, not per player)
  and status; measured by a pure ASGI middleware around the whole application;
* ``zdb_submissions_total`` — tournaments accepted (new ones and corrections, JSON or TRF),
  counted from the answers of the submission endpoints;
* ``zdb_recalculation_last_duration_seconds``, ``zdb_recalculation_last_evaluated``,
  ``zdb_recalculation_pending``, ``zdb_recalculation_dirty_age_seconds`` — read from the database
  at each scrape, so they tell what the worker (another process) did and how long the oldest
  change has waited for it;
* ``zdb_list_imports`` — rating-list and FIDE-list imports per kind and status (waiting,
  running, done, refused, failed), read from the database at each scrape;
* ``zdb_sweep_last_run_timestamp_seconds``, ``zdb_sweep_age_seconds`` — when beat's sweep last
  ran (``zdb.service_beats``), read from the database; absent before its first run;
* the outbox's and the notifications' (``zdb.api.notification_metrics``);
* ``zdb_broker_queue_length`` — messages waiting in the worker's queue (a Redis broker only;
  absent in the embedded mode, which has no queue).

Each application has its own registry. The first two are counted per serving process: with
several processes (``zdb serve --workers``), set ``PROMETHEUS_MULTIPROC_DIR`` to an empty
folder and the answer adds up every process's counts (``prometheus_client``'s multiprocess mode).
The others are read when scraped (``Metrics.read_at_scrape``): in multiprocess mode they are
answered beside the added-up counts, once, from the process that answers the scrape (the
multiprocess collector reads only the processes' files, which never hold them).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime

from fastapi.routing import APIRoute, APIRouter
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector
from sqlalchemy import Engine
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import compile_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from zdb.api.notification_metrics import NotificationMetrics
from zdb.config import WORKER_QUEUE
from zdb.db import unit_of_work
from zdb.lists.queries import import_counts
from zdb.ratings.status_queries import recalc_status
from zdb.service_beats import SWEEP, last_beat

__all__ = ["METRICS_PATH", "Metrics", "MetricsMiddleware", "route_templates"]

METRICS_PATH = "/metrics"
API_PREFIX = "/api/v1"
_SUBMISSIONS = {
    ("POST", "/api/v1/tournaments"): ("json", "new"),
    ("POST", "/api/v1/tournaments/trf"): ("trf", "new"),
    ("PUT", "/api/v1/tournaments/{tournament_id}"): ("json", "correction"),
    ("PUT", "/api/v1/tournaments/{tournament_id}/trf"): ("trf", "correction"),
}


class _Recalculation(Collector):
    """The recalculation's last run and whether one is pending, from the database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def collect(self) -> Iterator[Metric]:
        with unit_of_work(self.engine) as session:
            status = recalc_status(session)
            imports = import_counts(session)
            swept = last_beat(session, SWEEP)
        last = status.last_run
        duration = GaugeMetricFamily(
            "zdb_recalculation_last_duration_seconds", "duration of the last finished recalculation"
        )
        evaluated = GaugeMetricFamily(
            "zdb_recalculation_last_evaluated", "tournaments the last recalculation evaluated"
        )
        if last is not None and last.duration_ms is not None:
            duration.add_metric([], last.duration_ms / 1000)
        if last is not None and last.evaluated is not None:
            evaluated.add_metric([], last.evaluated)
        pending = GaugeMetricFamily("zdb_recalculation_pending", "1 while changes wait for the recalculation")
        pending.add_metric([], 0 if status.state == "idle" else 1)
        age = GaugeMetricFamily(
            "zdb_recalculation_dirty_age_seconds", "how long the oldest change has waited for a recalculation"
        )
        since = status.dirty_since
        age.add_metric([], 0.0 if since is None else max(0.0, (datetime.now(UTC) - since).total_seconds()))
        listed = GaugeMetricFamily("zdb_list_imports", "list imports per kind and status", labels=["kind", "status"])
        for (kind, state), count in sorted(imports.items()):
            listed.add_metric([kind, state], count)
        sweep = GaugeMetricFamily(
            "zdb_sweep_last_run_timestamp_seconds", "when beat's sweep last ran (Unix time; none before its first)"
        )
        sweep_age = GaugeMetricFamily("zdb_sweep_age_seconds", "seconds since beat's sweep last ran")
        if swept is not None:
            sweep.add_metric([], swept.timestamp())
            sweep_age.add_metric([], max(0.0, (datetime.now(UTC) - swept).total_seconds()))
        yield from (duration, evaluated, pending, age, listed, sweep, sweep_age)


class _BrokerQueue(Collector):
    """The length of the worker's queue on a Redis broker (Celery keeps it as a Redis list named
    after the queue). A broker that cannot be reached is left out of the answer, not a failed
    scrape: ``/health/ready`` reports it."""

    def __init__(self, broker_url: str, queue: str) -> None:
        self.broker_url, self.queue = broker_url, queue

    def collect(self) -> Iterator[Metric]:
        import redis  # noqa: PLC0415 - only a service with a Redis broker needs it

        try:
            client = redis.Redis.from_url(self.broker_url, socket_timeout=1, socket_connect_timeout=1)
            length = int(client.llen(self.queue))
        except redis.RedisError:
            return
        family = GaugeMetricFamily("zdb_broker_queue_length", "messages waiting in the worker's queue")
        family.add_metric([], length)
        yield family


class Metrics:
    """The registry of one application and its metrics."""

    def __init__(self, engine: Engine, broker_url: str | None = None) -> None:
        self.registry = CollectorRegistry()
        self.latency = Histogram(
            "zdb_http_request_duration_seconds",
            "time to answer a request",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.submissions = Counter(
            "zdb_submissions_total", "tournaments accepted", ["format", "kind"], registry=self.registry
        )
        #: the collectors read when scraped (the database, the broker, the replicas)
        self.scraped: list[Collector] = []
        self.read_at_scrape(_Recalculation(engine))
        self.read_at_scrape(NotificationMetrics(engine))
        if broker_url is not None and broker_url.startswith(("redis://", "rediss://")):
            self.read_at_scrape(_BrokerQueue(broker_url, WORKER_QUEUE))

    def read_at_scrape(self, collector: Collector) -> None:
        """Answer ``collector``'s metrics at each scrape, in either mode."""
        self.registry.register(collector)
        self.scraped.append(collector)

    def exposition(self) -> bytes:
        if "PROMETHEUS_MULTIPROC_DIR" not in os.environ:
            return generate_latest(self.registry)
        # the counts of every process from their files, and what is read now beside them
        combined = CollectorRegistry()
        MultiProcessCollector(combined)  # type: ignore[no-untyped-call]
        for collector in self.scraped:
            combined.register(collector)
        return generate_latest(combined)

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        self.latency.labels(method, route, str(status)).observe(seconds)
        submission = _SUBMISSIONS.get((method, route))
        if submission is not None and 200 <= status < 300:
            self.submissions.labels(*submission).inc()

    async def endpoint(self, request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool  # noqa: PLC0415

        return Response(await run_in_threadpool(self.exposition), media_type=CONTENT_TYPE_LATEST)


def route_templates(routers: Iterable[APIRouter], prefix: str) -> dict[str, frozenset[str]]:
    """The route templates (``/api/v1/players/{pkz}``) of ``routers`` included under
    ``prefix``, with the methods each answers: what the OpenAPI document lists as its paths.

    Read from the routers themselves, not from the application: FastAPI builds an included
    router's routes for the application on first use, and building them all (as the OpenAPI
    document does) costs most of a second, which every application would pay on its first
    request only for these templates."""
    methods: dict[str, set[str]] = {}
    for router in routers:
        for route in router.routes:
            if isinstance(route, APIRoute):
                methods.setdefault(f"{prefix}{route.path_format}", set()).update(m.upper() for m in route.methods or ())
    return {template: frozenset(answered) for template, answered in methods.items()}


class _Templates:
    """The route template of a path: the API's from its routers' templates (of the templates
    that have the request's method, a literal path before one with parameters:
    ``POST /tournaments/preview`` is not ``/tournaments/{tournament_id}``), the pages' from the
    route that served them; ``unmatched`` for any other (no series per path).

    The API's are matched here, not taken from ``scope["route"]``, because a request refused
    before routing (no token, too many requests, a body too large) is timed too."""

    def __init__(self, api: Mapping[str, frozenset[str]]) -> None:
        ordered = sorted(api, key=lambda t: (t.count("{"), t))
        self.patterns = [(compile_path(t)[0], t, api[t]) for t in ordered]

    def __call__(self, scope: Scope) -> str:
        path: str = scope["path"]
        if path.startswith(f"{API_PREFIX}/"):
            found = [(t, methods) for pattern, t, methods in self.patterns if pattern.match(path)]
            method = "GET" if scope["method"] == "HEAD" else scope["method"]
            chosen = [t for t, methods in found if method in methods] or [t for t, _ in found]
            return chosen[0] if chosen else "unmatched"
        route = scope.get("route")
        return str(getattr(route, "path", None) or "unmatched")


class MetricsMiddleware:
    """Times every answer; its route is the template the request matched."""

    def __init__(self, app: ASGIApp, *, metrics: Metrics, api: Mapping[str, frozenset[str]]) -> None:
        """``api``: the API's route templates and their methods (``route_templates``)."""
        self.app = app
        self.metrics = metrics
        self.template = _Templates(api)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] == METRICS_PATH:
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def watched(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, watched)
        finally:
            self.metrics.observe(scope["method"], self.template(scope), status, time.perf_counter() - started)
