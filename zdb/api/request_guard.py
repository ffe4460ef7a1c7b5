"""What a request must satisfy before its body is read: a size limit per endpoint, and a token
on the endpoints that write.

Without it one unauthenticated request could tie up a serving process: FastAPI reads a body in
full and parses JSON on the event loop before any dependency (the caller's authentication among
them) runs. This pure ASGI middleware looks at the request line and headers only:

* a body larger than its endpoint's limit is refused with 413 (a problem document) — at once
  when ``Content-Length`` says so, else as soon as the streamed bytes pass the limit;
* a write that needs a token (every write of the API that depends on the caller, the public
  simulator aside) is refused with 401 before a byte of its body is read: without an
  ``Authorization: Bearer`` header, and with a token that is unknown or revoked (looked up here,
  in a thread, before FastAPI parses a JSON or multipart body: a 16 MB body with any Bearer
  value used to be parsed first);
* a request whose Bearer token is unknown or revoked is a failed sign-in, counted
  (``zdb.endpoints.failed_sign_ins``): over the limit it is answered 429, else it goes on to its
  401. A valid token is never counted nor refused.

Limits (``zdb.config.Settings``): tournament submissions, previews and corrections (JSON, TRF,
SWT, the referees' upload page) ``max_upload_bytes``; uploads of a rating list (the federation's
ZIP, FIDE's list) ``max_list_upload_bytes``; the simulator and the small forms
``max_small_body_bytes``; anything else ``max_body_bytes``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from sqlalchemy import Engine
from sqlalchemy.exc import InterfaceError, OperationalError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.routing import compile_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from zdb.api.problems import problem_response
from zdb.auth.service import token_standing
from zdb.config import Settings
from zdb.db import unit_of_work
from zdb.endpoints.failed_sign_ins import FailedSignIns

__all__ = [
    "BodyTooLargeError",
    "RequestGuard",
    "TokenCheck",
    "TokenRoute",
    "bearer_token",
    "body_limit",
    "token_check",
    "token_routes",
]

#: a Bearer token's standing (``zdb.auth.service.token_standing``), None when it cannot be told
TokenCheck = Callable[[str], str | None]

_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_UPLOADS = re.compile(r"^/api/v1/tournaments(/.*)?$|^/referee/upload$")
_LISTS = re.compile(r"^/api/v1/lists/(imports|fide-imports)$|^/staff/lists$")
#: never looked at for a token: a health check must not depend on the token table
_UNCHECKED = re.compile(r"^/api/v1/health(/.*)?$|^/metrics$")
_SMALL = re.compile(r"^/api/v1/simulator$|^/referee/(sign-in|sign-out|tournaments/[^/]+/withdraw)$")


class BodyTooLargeError(HTTPException):
    """A streamed body passed its endpoint's limit: answered 413 wherever it is noticed (an
    ``HTTPException``, so that FastAPI's body parsing passes it on instead of making it a 400)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the body is larger than the {limit} bytes this endpoint accepts")
        self.limit = limit


def body_limit(settings: Settings, path: str) -> int:
    """The most bytes a body sent to ``path`` may have."""
    if _UPLOADS.match(path):
        return settings.max_upload_bytes
    if _LISTS.match(path):
        return settings.max_list_upload_bytes
    if _SMALL.match(path):
        return settings.max_small_body_bytes
    return settings.max_body_bytes


def bearer_token(scope: Scope) -> str | None:
    """The token of ``Authorization: Bearer <token>``; None without one."""
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").strip().partition(" ")
            return token.strip() or None if scheme.lower() == "bearer" else None
    return None


def token_check(engine: Engine) -> TokenCheck:
    """Looks a token up in a unit of work of its own; None while the database is out of reach
    (the endpoint then answers 503 as it does for any request)."""

    def check(secret: str) -> str | None:
        try:
            with unit_of_work(engine) as session:
                return token_standing(session, secret)
        except (OperationalError, InterfaceError):
            return None

    return check


def _calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for dependency in dependant.dependencies:
        if dependency.call is not None:
            yield dependency.call
        yield from _calls(dependency)


@dataclass(frozen=True, slots=True)
class TokenRoute:
    """An endpoint that needs a token: its path (as a pattern) and methods."""

    pattern: re.Pattern[str]
    methods: frozenset[str]


def token_routes(
    prefix: str, router: APIRouter, requires_token: Callable[..., Any], *, public: frozenset[str] = frozenset()
) -> list[TokenRoute]:
    """The endpoints of ``router`` (included under ``prefix``) that depend on ``requires_token``,
    except the paths in ``public``."""
    found = []
    for route in router.routes:
        if prefix + getattr(route, "path", "") in public:
            continue
        if isinstance(route, APIRoute) and requires_token in _calls(route.dependant):
            pattern, _, _ = compile_path(prefix + route.path)
            found.append(TokenRoute(pattern, frozenset(route.methods or ()) & _WRITES))
    return found


def _needs_token(routes: Sequence[TokenRoute], scope: Scope) -> bool:
    method, path = scope["method"], scope["path"]
    return method in _WRITES and any(method in r.methods and r.pattern.match(path) for r in routes)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class RequestGuard:
    """The middleware: ``token_routes`` are the endpoints that need a token (``token_routes()``),
    ``check`` tells a token's standing (``token_check``), ``failed_sign_ins`` counts the failures
    (None: not counted, the rate limits are off)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        settings: Settings,
        token_routes: Sequence[TokenRoute],
        check: TokenCheck,
        failed_sign_ins: FailedSignIns | None = None,
    ) -> None:
        self.app = app
        self.settings = settings
        self.token_routes = token_routes
        self.check = check
        self.failed_sign_ins = failed_sign_ins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = body_limit(self.settings, scope["path"])
        needs_token = _needs_token(self.token_routes, scope)
        token = bearer_token(scope)
        if needs_token and token is None:
            await self._refuse(
                scope, receive, send, 401, "unauthorized", detail="this needs 'Authorization: Bearer <token>'"
            )
            return
        counting = self.failed_sign_ins is not None and not _UNCHECKED.match(scope["path"])
        if token is not None and (needs_token or counting):
            standing = await run_in_threadpool(self.check, token)
            if standing in ("unknown", "revoked") and not await self._failed(scope, receive, send, token, standing):
                return
            if needs_token and standing in ("unknown", "revoked"):
                detail = "the token is not known" if standing == "unknown" else "the token was revoked"
                await self._refuse(scope, receive, send, 401, "unauthorized", detail=detail)
                return
        length = _content_length(scope)
        if length is not None and length > limit:
            detail = f"the body has {length} bytes; this endpoint accepts at most {limit}"
            await self._refuse(scope, receive, send, 413, "payload-too-large", detail=detail)
            return
        received = 0
        started = False

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLargeError(limit)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLargeError as error:
            if started:
                raise
            await self._refuse(scope, receive, send, 413, "payload-too-large", detail=str(error.detail))

    async def _failed(self, scope: Scope, receive: Receive, send: Send, token: str, standing: str) -> bool:
        """Count a failed sign-in; False (and answered 429) when it is over the limit."""
        if self.failed_sign_ins is None:
            return True
        address = (scope.get("client") or ("unknown", 0))[0]
        known = standing == "revoked"
        failures = self.failed_sign_ins
        if await run_in_threadpool(lambda: failures.count_failed_sign_in(address, token, known=known)):
            return True
        wait = await run_in_threadpool(lambda: failures.retry_after(address, token, known=known))
        detail = f"more than {failures.item} failed sign-ins from this client; retry in {wait} seconds"
        await self._refuse(scope, receive, send, 429, "too-many-requests", detail=detail, retry_after=wait)
        return False

    @staticmethod
    async def _refuse(
        scope: Scope, receive: Receive, send: Send, status: int, slug: str, *, detail: str, retry_after: int = 0
    ) -> None:
        headers = {"WWW-Authenticate": 'Bearer realm="zdb"'} if status == 401 else {}
        if retry_after:
            headers["Retry-After"] = str(retry_after)
        headers["Connection"] = "close"  # the body that was not read is not waited for
        response = problem_response(Request(scope), status, slug, detail, headers=headers)
        await response(scope, receive, send)
