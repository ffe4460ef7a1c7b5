"""What a request depends on: its unit of work, the caller, the page asked for.

The session is one unit of work per request (``zdb.db.unit_of_work``): committed once, when the
endpoint has finished and before the response is sent, so that a client never sees a success
for a write that was not committed; a recalculation requested by the write is dispatched only
after that commit. An error rolls everything back, and so does a refusal that a page answered
itself (``mark_refused``): the error never reaches the session, which would otherwise commit what
a service flushed before it refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Annotated

from fastapi import Depends, Path, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import AfterValidator, BeforeValidator
from pydantic_core import PydanticCustomError
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from zdb.auth.errors import AuthenticationError
from zdb.auth.principal import PUBLIC, Principal
from zdb.auth.service import authenticate
from zdb.db import unit_of_work
from zdb.db_routing import reading_engine, replica_failed
from zdb.endpoints.pagination import PageParams, page_params

__all__ = [
    "Caller",
    "Paging",
    "ReadCaller",
    "RequestSession",
    "get_principal",
    "get_read_principal",
    "get_session",
    "mark_refused",
]

_bearer = HTTPBearer(
    auto_error=False,
    description="An API token from `zdb token create`. Without one, public data is answered.",
)


#: request.state attribute: the request was refused, its unit of work must not commit
_REFUSED = "zdb_refused"


class _RefusedError(Exception):
    """Rolls the unit of work back (and drops its after-commit work) for a refused request."""


def mark_refused(request: Request) -> None:
    """The request was refused by an answer its route gave itself (a page's error page): what
    was flushed before the refusal is rolled back, not committed."""
    setattr(request.state, _REFUSED, True)


def _connects(engine: Engine) -> bool:
    try:
        with engine.connect():
            return True
    except OperationalError:
        return False


def get_session(request: Request) -> Iterator[Session]:
    # a public read may come from a streaming replica (zdb.db_routing); everything else, the primary
    engine = reading_engine(request)
    if engine is not request.app.state.engine and not _connects(engine):
        # the replica went away since its last measurement: skipped from now on, read from the primary
        replica_failed(request, engine)
        engine = request.app.state.engine
    try:
        with unit_of_work(engine) as session:
            yield session
            if getattr(request.state, _REFUSED, False):
                raise _RefusedError
    except _RefusedError:
        pass
    except OperationalError:
        replica_failed(request, engine)
        raise


RequestSession = Annotated[Session, Depends(get_session, scope="function")]


Credentials = Annotated[HTTPAuthorizationCredentials | None, Security(_bearer)]


def _secret(request: Request, credentials: HTTPAuthorizationCredentials | None) -> str | None:
    """The token sent, or ``None`` for the public (no Authorization header at all)."""
    if "authorization" not in request.headers:
        return None
    if credentials is None or not credentials.credentials:
        raise AuthenticationError("the Authorization header must read 'Bearer <token>'")
    return credentials.credentials


def get_principal(request: Request, session: RequestSession, credentials: Credentials) -> Principal:
    secret = _secret(request, credentials)
    return PUBLIC if secret is None else authenticate(session, secret)


def _authenticate_in_unit_of_work(engine: Engine, secret: str) -> Principal:
    with unit_of_work(engine) as session:
        return authenticate(session, secret)


async def get_read_principal(request: Request, credentials: Credentials) -> Principal:
    """The caller of a hot read (``zdb.api.hot_reads``), without a session of the request: the
    public is answered without touching the token table; a token is looked up in a unit of work
    of its own."""
    secret = _secret(request, credentials)
    if secret is None:
        return PUBLIC
    return await run_in_threadpool(_authenticate_in_unit_of_work, request.app.state.engine, secret)


Caller = Annotated[Principal, Depends(get_principal)]
ReadCaller = Annotated[Principal, Depends(get_read_principal)]
Paging = Annotated[PageParams, Depends(page_params)]


#: The largest values the database's columns hold: larger ones are refused as invalid input
#: (422), never passed on to the database (where they would be a 500).
INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1

TournamentId = Annotated[int, Path(ge=1, le=INT32_MAX, description="the tournament's id (kept across corrections)")]
PersonNumber = Annotated[int, Path(ge=1, le=INT64_MAX, description="person number (PKZ)")]


def _representable(value: datetime) -> datetime:
    # A date-time at the edge of the calendar with an offset (0001-01-01T00:00:00+14:00) has no
    # UTC equivalent: a wrong request, not a fault of the server.
    try:
        value.astimezone(UTC)
    except (OverflowError, ValueError):
        raise ValueError("lies outside the dates that can be compared (years 1 to 9999 in UTC)") from None
    return value


#: the type of the error of a query's date or date-time that is not ISO 8601 (answered 400, not 422:
#: the request names its parameter wrongly rather than a value the rules refuse)
ISO_8601_ERROR = "iso_8601"
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ISO_DATE_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:[Zz]|[+-]\d{2}:?\d{2})?)?"
)


def _iso_date_time(value: object) -> object:
    # Parsed strictly: pydantic's lax mode would take 0.5 or 1733000000 as seconds since 1970,
    # and a client that sends one meant something else.
    if not isinstance(value, str) or not _ISO_DATE_TIME.fullmatch(value):
        raise PydanticCustomError(
            ISO_8601_ERROR, "must be an ISO 8601 date or date-time, e.g. 2026-12-01 or 2026-12-01T08:00:00Z"
        )
    return value


def _iso_date(value: object) -> object:
    if not isinstance(value, str) or not _ISO_DATE.fullmatch(value):
        raise PydanticCustomError(ISO_8601_ERROR, "must be an ISO 8601 date, e.g. 2026-12-01")
    return value


#: an ISO 8601 date-time (or date: its midnight) of a query that has a UTC equivalent
QueryDateTime = Annotated[datetime, BeforeValidator(_iso_date_time), AfterValidator(_representable)]
#: an ISO 8601 date of a query (YYYY-MM-DD), nothing else
QueryDate = Annotated[date, BeforeValidator(_iso_date)]
