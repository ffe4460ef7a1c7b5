"""Every error as an RFC 9457 problem document (``application/problem+json``).

A problem names its type (a URI under ``/api/v1/problems/``, where each type is described), a
title, the status, a detail for this occurrence, the request path as ``instance``, and
``errors``: each wrong field or line (``place``) with what is wrong with it. Domain errors map
to 4xx; FastAPI's own validation errors, unknown paths and methods become problems too. Anything
else is a bug: it is logged and answered with a 500 that reveals nothing of the internals,
except the database being out of reach or giving up on a request (a restart, a lost connection,
a deadlock): that is no bug of the request or of the code, and is answered with a 503 and a
``Retry-After``.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from http import HTTPStatus
from typing import Any

import psycopg
import psycopg.errors
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.exc import DataError, IntegrityError, InterfaceError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from zdb.api.request_log import logged_path
from zdb.auth.errors import AuthenticationError, PermissionDeniedError
from zdb.endpoints.dependencies import ISO_8601_ERROR
from zdb.errors import ConflictError, DomainError, NotFoundError, ValidationError
from zdb.rating import InvalidInputError
from zdb.reviews.directory import TooManyMessagesError
from zdb.submissions.json_messages import submission_field_problem

__all__ = [
    "PROBLEM_MEDIA_TYPE",
    "PROBLEM_TYPES",
    "Problem",
    "ProblemPlace",
    "ProblemType",
    "install_problem_handlers",
    "problem_response",
    "problem_type_uri",
]

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_BASE = "/api/v1/problems/"

_log = logging.getLogger(__name__)


class ProblemPlace(BaseModel):
    place: str = Field(
        description="the wrong field (query.limit, body.players[2].pid) or line", examples=["query.limit"]
    )
    message: str = Field(examples=["Input should be less than or equal to 1000"])


class Problem(BaseModel):
    """RFC 9457 problem details."""

    type: str = Field(examples=["/api/v1/problems/not-found"])
    title: str = Field(examples=["Not found"])
    status: int = Field(examples=[404])
    detail: str | None = Field(examples=["player 10000099 does not exist"])
    instance: str | None = Field(description="the request path", examples=["/api/v1/players/10000099"])
    errors: list[ProblemPlace] = Field(description="each wrong field or line; empty when none is to blame")
    warnings: list[ProblemPlace] = Field(
        default_factory=list,
        description="a refused submission's warnings beside its errors: what would not refuse it but its sender "
        "should know (file lines the reader passed over, a value the person's record overrides); absent when none",
    )


class ProblemType(BaseModel):
    type: str = Field(examples=["/api/v1/problems/not-found"])
    title: str = Field(examples=["Not found"])
    status: int = Field(examples=[404])
    description: str = Field(examples=["The resource does not exist."])


_TYPES: dict[str, tuple[int, str, str]] = {
    "bad-request": (400, "Bad request", "The request cannot be processed as it is."),
    "unauthorized": (
        401,
        "Unauthorized",
        "The Authorization header is malformed, or its token is unknown or revoked. Send "
        "'Authorization: Bearer <token>' with a token from 'zdb token create', or no header for public data.",
    ),
    "forbidden": (403, "Forbidden", "The token's role or scope does not allow this."),
    "not-found": (404, "Not found", "The resource does not exist."),
    "method-not-allowed": (405, "Method not allowed", "The resource does not support this method; see 'Allow'."),
    "conflict": (409, "Conflict", "The request conflicts with the state of the resource."),
    "payload-too-large": (
        413,
        "Payload too large",
        "The body is larger than this endpoint accepts (tournament files a few MB, small JSON bodies some KB); "
        "it was not read.",
    ),
    "too-many-requests": (
        429,
        "Too many requests",
        "The client sent more requests than its limit allows in the window (per address for reads and failed "
        "authentications, per token for writes); retry after the seconds 'Retry-After' gives.",
    ),
    "invalid-request": (
        422,
        "Invalid request",
        "A parameter or a field of the body is missing or wrong; 'errors' names each one.",
    ),
    "invalid-submission": (422, "Invalid submission", "The submission was refused as a whole; 'errors' lists all."),
    "internal-error": (500, "Internal error", "A fault of the server. It was logged; the request may be retried."),
    "unavailable": (
        503,
        "Service unavailable",
        "The database cannot be reached just now, or gave up on the request (a restart, a lost connection, a "
        "deadlock); nothing was stored. Retry after the seconds 'Retry-After' gives.",
    ),
    "http-error": (400, "HTTP error", "An error of the HTTP exchange; 'status' tells which."),
}
_BY_STATUS = {
    status: slug for slug, (status, _, _) in _TYPES.items() if slug not in ("invalid-submission", "http-error")
}

PROBLEM_TYPES = {
    slug: ProblemType(type=PROBLEM_BASE + slug, title=title, status=status, description=description)
    for slug, (status, title, description) in _TYPES.items()
}


def problem_type_uri(slug: str) -> str:
    return PROBLEM_BASE + slug


def problem_response(
    request: Request,
    status: int,
    slug: str,
    detail: str | None,
    *,
    errors: Sequence[tuple[str, str]] = (),
    warnings: Sequence[tuple[str, str]] = (),
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    title = _TYPES[slug][1] if slug in _TYPES and slug != "http-error" else HTTPStatus(status).phrase
    body = Problem(
        type=problem_type_uri(slug),
        title=title,
        status=status,
        detail=detail,
        instance=request.url.path,
        errors=[ProblemPlace(place=place, message=message) for place, message in errors],
        warnings=[ProblemPlace(place=place, message=message) for place, message in warnings],
    )
    content = body.model_dump(mode="json")
    if not warnings:
        del content["warnings"]  # an extension member, present only where a submission has some
    return JSONResponse(content, status_code=status, media_type=PROBLEM_MEDIA_TYPE, headers=headers)


def _place(location: Sequence[Any]) -> str:
    """("body", "players", 2, "pid") -> "body.players[2].pid"."""
    text = ""
    for part in location:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


async def _validation(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    found = error.errors()
    # A tournament's field given as a query parameter (a TRF upload's end_date) is answered as in
    # a JSON body: the value, the form expected and an example, not the framework's words.
    submission = request.url.path.startswith("/api/v1/tournaments")
    errors = [
        (_place(e.get("loc", ())), str((submission and submission_field_problem(e)) or e.get("msg", "invalid")))
        for e in found
    ]
    names = ", ".join(place for place, _ in errors)
    if found and all(e.get("type") == ISO_8601_ERROR for e in found):
        # a date or date-time that is not ISO 8601 (changed_since=0.5): the request is malformed
        return problem_response(
            request, 400, "bad-request", f"not an ISO 8601 date or date-time: {names}", errors=errors
        )
    return problem_response(request, 422, "invalid-request", f"invalid: {names}", errors=errors)


async def _http(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    status = error.status_code
    slug = _BY_STATUS.get(status, "http-error")
    detail = error.detail if isinstance(error.detail, str) else None
    if status == 404:
        detail = f"nothing is at {request.url.path}"
    elif status == 405:
        allowed = (error.headers or {}).get("Allow") or (error.headers or {}).get("allow")
        detail = f"{request.method} is not allowed here" + (f"; allowed: {allowed}" if allowed else "")
    return problem_response(request, status, slug, detail, headers=dict(error.headers or {}))


_DOMAIN: tuple[tuple[type[DomainError], int, str], ...] = (
    (AuthenticationError, 401, "unauthorized"),
    (PermissionDeniedError, 403, "forbidden"),
    (NotFoundError, 404, "not-found"),
    (ConflictError, 409, "conflict"),
    (ValidationError, 422, "invalid-submission"),
    (TooManyMessagesError, 429, "too-many-requests"),
)


async def _domain(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, DomainError)
    status, slug = 400, "bad-request"
    for kind, code, name in _DOMAIN:
        if isinstance(error, kind):
            status, slug = code, name
            break
    errors = [(p.place, p.message) for p in error.problems] if isinstance(error, ValidationError) else []
    warnings = [(p.place, p.message) for p in error.warnings] if isinstance(error, ValidationError) else []
    headers = {"WWW-Authenticate": 'Bearer realm="zdb"'} if status == 401 else None
    if isinstance(error, TooManyMessagesError):
        headers = {"Retry-After": str(error.retry_after)}
    return problem_response(request, status, slug, str(error), errors=errors, warnings=warnings, headers=headers)


async def _engine_input(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, InvalidInputError)
    return problem_response(request, 422, "invalid-submission", str(error), errors=[(error.place, error.problem)])


def _driver_error(error: Exception) -> BaseException | None:
    """psycopg's own error behind SQLAlchemy's wrapper; the asynchronous read pool raises it
    unwrapped."""
    return error.orig if isinstance(error, (DataError, IntegrityError)) else error


async def _unstorable(request: Request, error: Exception) -> JSONResponse:
    # The database refused a value of the request (a NUL character in a text, a number beyond
    # a column's range): the request is at fault, and the unit of work has rolled back.
    cause = _driver_error(error)
    detail = str(cause).splitlines()[0] if cause is not None else "a value cannot be stored"
    return problem_response(request, 422, "invalid-submission", f"a value of the request cannot be stored: {detail}")


def _broken_rule(error: Exception) -> str | None:
    """The name of the check a value broke (a birth year out of range, say), or None when the
    integrity error is a uniqueness that a concurrent request took first."""
    cause = _driver_error(error)
    if isinstance(cause, psycopg.errors.UniqueViolation):
        return None
    if isinstance(cause, psycopg.Error):
        return getattr(cause.diag, "constraint_name", None) or "a rule of the database"
    if isinstance(cause, sqlite3.IntegrityError) and not str(cause).startswith("UNIQUE constraint failed"):
        return str(cause).rsplit(":", 1)[-1].strip() or "a rule of the database"
    return None  # a uniqueness, or a driver that does not tell: a retry may succeed


async def _conflicting(request: Request, error: Exception) -> JSONResponse:
    rule = _broken_rule(error)
    if rule is not None:
        # A value of the request breaks a rule of the schema that no check before caught: a
        # retry cannot help (the unit of work has rolled back, nothing was stored).
        return problem_response(
            request, 422, "invalid-submission", f"a value of the request breaks the rule {rule}; nothing was stored"
        )
    # A uniqueness the database guards was broken by a concurrent request: nothing was stored;
    # the request may be retried.
    return problem_response(
        request, 409, "conflict", "a concurrent change stored the same data first; nothing was stored, retry"
    )


#: seconds a client waits before it asks again when the database is out of reach
RETRY_AFTER = 5


async def _unavailable(request: Request, error: Exception) -> JSONResponse:
    # The unit of work has rolled back (or never began). Logged without a traceback: an outage
    # shows as one line per request, and the database's own log tells why.
    _log.warning(
        "database unavailable in %s %s: %s", request.method, logged_path(request.url.path), error.__class__.__name__
    )
    return problem_response(
        request,
        503,
        "unavailable",
        "the database cannot be reached just now or gave up on the request; nothing was stored, retry later",
        headers={"Retry-After": str(RETRY_AFTER)},
    )


async def _bug(request: Request, error: Exception) -> JSONResponse:
    _log.exception("unhandled error in %s %s", request.method, logged_path(request.url.path), exc_info=error)
    return problem_response(request, 500, "internal-error", "an internal error occurred; it was logged")


def install_problem_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(DomainError, _domain)
    app.add_exception_handler(InvalidInputError, _engine_input)
    app.add_exception_handler(DataError, _unstorable)
    app.add_exception_handler(psycopg.DataError, _unstorable)
    app.add_exception_handler(IntegrityError, _conflicting)
    app.add_exception_handler(psycopg.IntegrityError, _conflicting)
    # SQLAlchemy's wrappers, and psycopg's own errors of the asynchronous read pool (a pool
    # that cannot hand out a connection in time raises psycopg_pool.PoolTimeout, an
    # OperationalError too).
    for unavailable in (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError):
        app.add_exception_handler(unavailable, _unavailable)
    app.add_exception_handler(Exception, _bug)
