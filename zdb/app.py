"""The FastAPI application: routers under ``/api/v1``, problem documents for errors, the
OpenAPI document, and the recalculation that follows every committed change.

In PostgreSQL the application opens, with its lifespan, the connection pool of the hot reads
(the player card and the club list: ``zdb.api.hot_reads``).

Around the application, pure ASGI middleware: the request's id and access log
(``zdb.api.request_log``), security headers (``zdb.api.security_headers``), metrics
(``zdb.api.metrics``), rate limits (``zdb.api.rate_limits``) and the request guard — body size
and a token for writes (``zdb.api.request_guard``).

Work that follows a commit goes through the outbox (``zdb.outbox``). In the embedded mode (no
broker) its relay is a thread of this process (``RelayThread``): it wakes the recalculation's
thread (``EmbeddedRecalculator``), runs uploaded imports in threads and sends the notifications;
both threads start with the application and stop with it. In production a commit wakes the
Celery relay (``workers.outbox_tasks.wake_relay``), which hands the work to the workers.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

from fastapi import Depends, FastAPI
from sqlalchemy import Engine
from sqlalchemy.orm import Session

import zdb.models  # noqa: F401 - every table known: a flush orders tables by foreign keys whose targets must be known
from zdb import __version__
from zdb.api.docs import install_docs
from zdb.api.http_caching import CachePolicy, HttpCaching
from zdb.api.known_parameters import refuse_unknown_parameters
from zdb.api.metrics import METRICS_PATH, Metrics, MetricsMiddleware, route_templates
from zdb.api.openapi import install_openapi
from zdb.api.problems import install_problem_handlers
from zdb.api.rate_limits import RateLimits, storage_for
from zdb.api.read_pool import open_read_pool
from zdb.api.replica_status import ReplicaLag
from zdb.api.replica_status import router as replica_status_router
from zdb.api.request_guard import RequestGuard, token_check, token_routes
from zdb.api.request_log import RequestLog, configure_json_logs, configure_text_logs
from zdb.api.routers import announcements as announcements_router
from zdb.api.routers import auth, federations, health, meta, players, ratings, submissions, tournaments
from zdb.api.routers import complaints as complaints_router
from zdb.api.routers import editions as editions_router
from zdb.api.routers import entry_check as entry_check_router
from zdb.api.routers import fees as fees_router
from zdb.api.routers import files as files_router
from zdb.api.routers import impact as impact_router
from zdb.api.routers import lists as lists_router
from zdb.api.routers import office as office_router
from zdb.api.routers import reviews as reviews_router
from zdb.api.routers import subscriptions as subscriptions_router
from zdb.api.routers import tools as tools_router
from zdb.api.routers import top_lists as top_lists_router
from zdb.api.routers import tournament_states as tournament_states_router
from zdb.api.security_headers import SecurityHeaders
from zdb.config import Settings
from zdb.db import engine_for, is_postgres, unit_of_work
from zdb.db_routing import Replicas
from zdb.endpoints.dependencies import get_principal
from zdb.endpoints.failed_sign_ins import FailedSignIns
from zdb.lists.lost_imports import close_lost_imports
from zdb.lists.queue import LIST_IMPORT, run_in_thread
from zdb.notifications.relaying import delivery_policy, relay_pass
from zdb.outbox.models import OutboxMessage
from zdb.outbox.relay import Handler
from zdb.outbox.seam import clear_waker, set_waker
from zdb.outbox.thread import RelayThread
from zdb.portal import install_portal
from zdb.recalculation.embedded import EmbeddedRecalculator
from zdb.web import install_web
from zdb.web.referee_session import SESSION_COOKIE

__all__ = ["API_PREFIX", "app_from_environment", "create_app"]

API_PREFIX = "/api/v1"

_DESCRIPTION = """\
The central DWZ rating database: players, clubs, federations, tournaments, their evaluations
and the full rating history of every player.

**Access.** Public data needs no token. Send `Authorization: Bearer <token>` (from
`zdb token create`) for more: `admin` sees and may do everything, a `referee` acts in a
federation subtree (a club-code prefix), a `club` token sees its own members' non-public
fields (the full birth date, which is never public; the birth year is).

**Answers.** Lists take `limit` and `offset` and give `total`. Absent values are `null`,
never left out and never 0. Every GET answer carries an `ETag` and `Last-Modified`; send
the tag back as `If-None-Match` (or the time as `If-Modified-Since`) and an unchanged answer is a
bodiless 304. `Cache-Control` says what a shared cache may keep: a public answer for seconds, a
published edition for a day, an answer to a token never. An unknown query parameter is a 400,
never ignored.

**Errors** are RFC 9457 problem documents (`application/problem+json`) whose `errors`
name each wrong field or line.
"""

#: the API's routers, the hot reads' first (a request is matched against the routes in this order)
_API_ROUTERS = (
    players.router,
    ratings.router,
    tournaments.router,
    federations.router,
    auth.router,
    meta.router,
    health.router,
    replica_status_router,
    submissions.router,
    files_router.router,
    tools_router.router,
    top_lists_router.router,
    office_router.router,
    editions_router.router,
    impact_router.router,
    lists_router.router,
    announcements_router.router,
    tournament_states_router.router,
    fees_router.router,
    reviews_router.router,
    complaints_router.router,
    entry_check_router.router,
    subscriptions_router.router,
)
#: the writes anyone may send: the rating simulator computes and stores nothing; a player files a
#: complaint by his person number (limited per address: ``rate_limit_complaints``)
PUBLIC_WRITES = frozenset({f"{API_PREFIX}/simulator", f"{API_PREFIX}/complaints"})

_TAGS = [
    {"name": "players", "description": "Search and the player card with the full history."},
    {"name": "tournaments", "description": "Tournaments, evaluation reports, crosstables, explanations."},
    {"name": "federations and clubs", "description": "The federation tree and its clubs."},
    {"name": "ratings", "description": "Top lists, the club software's list and change feed, the recalculation."},
    {"name": "access", "description": "The caller and the audit log."},
    {"name": "office", "description": "Staff keep the record: persons, memberships, clubs, federations (admin)."},
    {"name": "fees", "description": "Fee schedules, the fees of evaluated tournaments, invoices."},
    {
        "name": "reviews",
        "description": "Review by the responsible rating officer, and the public directory of who is responsible.",
    },
    {"name": "meta", "description": "Problem types and health."},
    {"name": "notifications", "description": "Signed notifications to club software: subscriptions and their log."},
]


#: unknown query parameters are a 400 on every API address, never ignored
_KNOWN_PARAMETERS = [Depends(refuse_unknown_parameters)]


def _embedded_relay(settings: Settings, engine: Engine, recalculator: EmbeddedRecalculator) -> RelayThread:
    """The embedded mode's relay: what each outbox message hands on, in this process."""

    def recalculate(_session: Session, _message: OutboxMessage) -> None:
        recalculator.wake()

    def run_import(_session: Session, message: OutboxMessage) -> None:
        run_in_thread(engine, int(message.payload["import"]))

    handlers: dict[str, Handler] = {"recalculate": recalculate, LIST_IMPORT: run_import}
    policy = delivery_policy(settings)
    return RelayThread(engine, lambda: relay_pass(engine, handlers, policy), settings.outbox_poll_seconds)


def create_app(settings: Settings, *, recalculation: bool = True) -> FastAPI:
    """The application for ``settings``. ``recalculation=False`` leaves the recalculation to the
    caller (tests drive it themselves)."""
    engine = engine_for(settings.database_url)
    # streaming replicas for the reads that may lag (PostgreSQL only: zdb.db_routing)
    replicas = None
    if settings.replica_urls and is_postgres(engine):
        replicas = Replicas.from_urls(
            settings.replica_urls,
            max_lag=settings.replica_max_lag_seconds,
            every=settings.replica_check_seconds,
            session_cookie=SESSION_COOKIE,
        )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # a second start of the same application (on another loop) leaves the first one's pool
        pool = None if app.state.read_pool is not None else await open_read_pool(engine, settings.read_pool_size)
        if pool is not None:
            app.state.read_pool = pool
        # What the start made lives as long as the process: the collector need not walk it again
        # (a full collection over it stalls every request in flight for milliseconds).
        gc.collect()
        gc.freeze()
        if replicas is not None:
            replicas.start()  # measured now, then every replica_check_seconds
        recalculator = relay = None
        if recalculation and settings.embedded:
            # Embedded, list imports run in this process's threads: one still running at its start
            # was left by an earlier process that stopped in the middle. Its worker is lost.
            with unit_of_work(engine) as session:
                close_lost_imports(session, timedelta(0))
            recalculator = EmbeddedRecalculator(engine, settings.sweep_seconds)
            recalculator.start()
            relay = _embedded_relay(settings, engine, recalculator)
            relay.start()
        elif recalculation:
            # Celery is loaded only in production, where a broker is configured.
            from workers.outbox_tasks import wake_relay  # noqa: PLC0415

            set_waker(engine, wake_relay)
        try:
            yield
        finally:
            if relay is not None and recalculator is not None:
                relay.stop()
                recalculator.stop()
            elif recalculation:
                clear_waker(engine)
            if pool is not None:
                app.state.read_pool = None
                await pool.pool.close()
            if replicas is not None:
                replicas.stop()

    app = FastAPI(
        title="ZDB: the DWZ rating database",
        version=__version__,
        description=_DESCRIPTION,
        openapi_tags=_TAGS,
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=None,  # zdb.api.docs: the page with the service's own copy of Swagger UI
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.engine = engine
    app.state.read_pool = None  # opened by the lifespan in PostgreSQL: zdb.api.read_pool
    app.state.settings = settings
    app.state.replicas = replicas  # None: every read from the primary
    app.state.started_at = datetime.now(UTC)
    # The hot reads' routers first: a request is matched against the routes in this order.
    for router in _API_ROUTERS:
        app.include_router(router, prefix=API_PREFIX, dependencies=_KNOWN_PARAMETERS)
    install_problem_handlers(app)
    install_openapi(app)
    install_portal(app)
    install_web(app)
    install_docs(app, f"{API_PREFIX}/docs", f"{API_PREFIX}/openapi.json")
    metrics = Metrics(engine, settings.broker_url)
    app.add_route(METRICS_PATH, metrics.endpoint, include_in_schema=False)
    if replicas is not None:
        metrics.read_at_scrape(ReplicaLag(replicas))
    # Each middleware added wraps the ones before it: a request passes them from the last to
    # the first, before the body is read.
    # Every write of the API that depends on the caller needs a token, the public simulator aside.
    writers = [
        route
        for router in _API_ROUTERS
        for route in token_routes(API_PREFIX, router, get_principal, public=PUBLIC_WRITES)
    ]
    failed_sign_ins = FailedSignIns(settings) if settings.rate_limits else None
    app.state.failed_sign_ins = failed_sign_ins  # the pages' sign-in counts its failures too
    app.add_middleware(
        RequestGuard,
        settings=settings,
        token_routes=writers,
        check=token_check(engine),
        failed_sign_ins=failed_sign_ins,
    )
    if settings.rate_limits:  # before the guard: a client over its limit costs nothing more
        app.add_middleware(RateLimits, settings=settings, storage=storage_for(settings))
    # times the refusals too
    app.add_middleware(MetricsMiddleware, metrics=metrics, api=route_templates(_API_ROUTERS, API_PREFIX))
    # what a shared cache may keep, on every answer, refusals included (never kept)
    policy = CachePolicy(
        live_max_age=settings.cache_max_age,
        stale_while_revalidate=settings.cache_stale_seconds,
        edition_max_age=settings.edition_max_age,
        session_cookie=SESSION_COOKIE,
    )
    app.add_middleware(HttpCaching, policy=policy)
    app.add_middleware(SecurityHeaders, hsts=settings.behind_tls)  # on every answer, refusals included
    app.add_middleware(RequestLog)  # outermost: every log record of a request carries its id
    return app


def app_from_environment() -> FastAPI:
    """The factory ``zdb serve`` hands to uvicorn: settings from the environment."""
    settings = Settings.from_environment()
    if settings.log_format == "json":
        configure_json_logs()
    else:
        configure_text_logs()
    return create_app(settings)
