"""Health: liveness (the process answers) and readiness (it can serve: the database answers,
and in production the broker too), each dependency reported on its own.

``/health/live`` asks nothing of the database: an orchestrator restarts a process that fails
it, and a database outage is no reason to restart every API process. ``/health/ready`` (and
``/health``, its older name) answers 503 with a problem document naming each dependency that
does not answer, so that a load balancer sends no requests to a process that cannot serve them;
in production also when beat's sweep has not run for ``Settings.sweep_stale_seconds`` (beat or
the worker is down: accepted submissions would wait unevaluated).
No token is needed and none is looked at (a check must not depend on the token table).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from zdb.api.conditional import conditional_json
from zdb.api.health_checks import broker_answers, database_answers, last_sweep
from zdb.api.openapi import problems
from zdb.api.problems import RETRY_AFTER, problem_response
from zdb.common.utc import UtcDateTime

__all__ = ["Health", "Liveness", "router"]

router = APIRouter(prefix="/health", tags=["meta"])


class Liveness(BaseModel):
    status: Literal["ok"]


class Health(BaseModel):
    status: Literal["ok"]
    database: Literal["ok"]
    broker: Literal["ok", "none"] = Field(description="'none' when embedded: the recalculation runs in-process")
    last_sweep: UtcDateTime | None = Field(
        default=None,
        description="when beat's sweep last ran (production; null when embedded or before its first run)",
        examples=["2026-12-02T08:00:30Z"],
    )


def _stale_sweep(request: Request, last: datetime | None) -> str | None:
    """Why the sweep counts as stopped, or None. Before its first run the process's own start is
    the reference: a fresh deployment has the whole bound for its first sweep."""
    bound = request.app.state.settings.sweep_stale_seconds
    if bound <= 0:
        return None
    since = last or request.app.state.started_at
    age = (datetime.now(UTC) - since).total_seconds()
    if age <= bound:
        return None
    when = "has not run since this process started" if last is None else f"last ran {round(age)} seconds ago"
    return f"{when}, more than {round(bound)}: is beat running, and the worker?"


@router.get("/live", response_model=Liveness, summary="The process answers (liveness)")
def live(*, request: Request) -> Response:
    return conditional_json(request, Liveness(status="ok"))


async def _ready(request: Request) -> Response:
    settings = request.app.state.settings
    failed = []
    if not await run_in_threadpool(database_answers, request.app.state.engine):
        failed.append(("database", "does not answer"))
    broker: Literal["ok", "none"] = "none"
    swept = None
    if settings.broker_url is not None:
        broker = "ok"
        if not await run_in_threadpool(broker_answers, settings.broker_url):
            failed.append(("broker", "does not answer"))
        swept = await run_in_threadpool(last_sweep, request.app.state.engine)
        stale = _stale_sweep(request, swept)
        if stale is not None and not failed:
            failed.append(("sweep", stale))
    if failed:
        names = " and the ".join(name for name, _ in failed if name != "sweep")
        if not names:  # everything answers, but the sweep has stopped
            return problem_response(
                request,
                503,
                "unavailable",
                f"the sweep {failed[0][1]}",
                errors=failed,
                headers={"Retry-After": str(RETRY_AFTER)},
            )
        return problem_response(
            request,
            503,
            "unavailable",
            f"the {names} cannot be reached just now",
            errors=failed,
            headers={"Retry-After": str(RETRY_AFTER)},
        )
    return conditional_json(request, Health(status="ok", database="ok", broker=broker, last_sweep=swept))


@router.get(
    "/ready", response_model=Health, summary="The server can serve: database and broker answer", responses=problems(503)
)
async def ready(*, request: Request) -> Response:
    return await _ready(request)


@router.get(
    "", response_model=Health, summary="The server, its database and its broker answer", responses=problems(503)
)
async def health(*, request: Request) -> Response:
    return await _ready(request)
