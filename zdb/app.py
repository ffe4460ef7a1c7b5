"""The FastAPI application: routers under ``/api/v1``, problem documents for errors, the
OpenAPI document, and the recalculation that follows every committed change.

In PostgreSQL the application opens, with its lifespan, the connection pool of the hot reads
(the player card and the club list: ``zdb.api.hot_reads``).

Around the application, pure ASGI middleware: the request's id and access log
(``zdb.api.request_log``), security headers (``zdb.api.security_headers``), metrics
(``zdb.api.metrics``), rate limits (``zdb.api.rate_limits``) and the request guard — body size
and a token for writes (``zdb.api.request_guard``).

In the embedded mode (no broker) the recalculation runs in a background thread of this process
(``EmbeddedRecalculator``), started with the application and stopped with it; in production a
committed change sends the Celery task (``workers.tasks.dispatch``).
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

from fastapi import Depends, FastAPI
from sqlalchemy import Engine

from zdb import __version__
from zdb.api.docs import install_docs
from zdb.api.known_parameters import refuse_unknown_parameters
from zdb.api.metrics import METRICS_PATH, Metrics, MetricsMiddleware
from zdb.api.openapi import install_openapi
from zdb.api.problems import install_problem_handlers
from zdb.api.rate_limits import RateLimits, storage_for
from zdb.api.read_pool import open_read_pool
from zdb.api.request_guard import RequestGuard, token_check, token_routes
from zdb.api.request_log import RequestLog, configure_json_logs, configure_text_logs
from zdb.api.routers import announcements as announcements_router
from zdb.api.routers import auth, federations, health, meta, players, ratings, submissions, tournaments
from zdb.api.routers import editions as editions_router
from zdb.api.routers import files as files_router
from zdb.api.routers import impact as impact_router
from zdb.api.routers import lists as lists_router
from zdb.api.routers import office as office_router
from zdb.api.routers import tools as tools_router
from zdb.api.routers import top_lists as top_lists_router
from zdb.api.routers import tournament_states as tournament_states_router
from zdb.api.security_headers import SecurityHeaders
from zdb.config import Settings
from zdb.db import engine_for, unit_of_work
from zdb.endpoints.dependencies import get_principal
from zdb.endpoints.failed_sign_ins import FailedSignIns
from zdb.lists.dispatch import ImportStarter, thread_starter
from zdb.lists.lost_imports import close_lost_imports
from zdb.portal import install_portal
from zdb.recalculation.embedded import EmbeddedRecalculator
from zdb.timeline.recalc_dispatch import clear_dispatcher, set_dispatcher
from zdb.web import install_web

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
bodiless 304. An unknown query parameter is a 400, never ignored.

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
)
#: the writes anyone may send: the rating simulator computes and stores nothing
PUBLIC_WRITES = frozenset({f"{API_PREFIX}/simulator"})

_TAGS = [
    {"name": "players", "description": "Search and the player card with the full history."},
    {"name": "tournaments", "description": "Tournaments, evaluation reports, crosstables, explanations."},
    {"name": "federations and clubs", "description": "The federation tree and its clubs."},
    {"name": "ratings", "description": "Top lists, the club software's list and change feed, the recalculation."},
    {"name": "access", "description": "The caller and the audit log."},
    {"name": "office", "description": "Staff keep the record: persons, memberships, clubs, federations (admin)."},
    {"name": "meta", "description": "Problem types and health."},
]


#: unknown query parameters are a 400 on every API address, never ignored
_KNOWN_PARAMETERS = [Depends(refuse_unknown_parameters)]


def _list_import_starter(settings: Settings, engine: Engine) -> ImportStarter:
    if settings.embedded:
        return thread_starter(engine)

    def send(import_id: int) -> None:
        # Celery is loaded only in production, where a broker is configured.
        from workers.list_tasks import import_list  # noqa: PLC0415

        import_list.delay(import_id)

    return send


def create_app(settings: Settings, *, recalculation: bool = True) -> FastAPI:
    """The application for ``settings``. ``recalculation=False`` leaves the recalculation to the
    caller (tests drive it themselves)."""
    engine = engine_for(settings.database_url)

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
        recalculator = None
        if recalculation and settings.embedded:
            # Embedded, list imports run in this process's threads: one still running at its start
            # was left by an earlier process that stopped in the middle. Its worker is lost.
            with unit_of_work(engine) as session:
                close_lost_imports(session, timedelta(0))
            recalculator = EmbeddedRecalculator(engine, settings.sweep_seconds)
            recalculator.start()
        elif recalculation:
            # Celery is loaded only in production, where a broker is configured.
            from workers.tasks import dispatch  # noqa: PLC0415

            set_dispatcher(dispatch)
        try:
            yield
        finally:
            if recalculator is not None:
                recalculator.stop()
            elif recalculation:
                clear_dispatcher()
            if pool is not None:
                app.state.read_pool = None
                await pool.pool.close()

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
    # uploaded list imports are run where the recalculation runs (zdb.lists.dispatch)
    app.state.start_list_import = _list_import_starter(settings, engine) if recalculation else None
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
    app.add_middleware(MetricsMiddleware, metrics=metrics, api=app)  # times the refusals too
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
