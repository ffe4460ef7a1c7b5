"""What a request must satisfy before its body is read: a size limit per endpoint, and a token
on the endpoints that write.

Without it one unauthenticated request could tie up a serving process: FastAPI reads a body in
full and parses JSON on the event loop before any dependency (the caller's authentication among
them) runs. This pure ASGI middleware looks at the request line and headers only:

* a body larger than its endpoint's limit is refused with 413 (a problem document) — at once
  when ``Content-Length`` says so, else as soon as the streamed bytes pass the limit;
* a write that needs a token (an endpoint that depends on ``requires_token``'s dependency)
  without an ``Authorization: Bearer`` header is refused with 401 before a byte of the body is
  read. Whether the token is valid is still the endpoint's question.

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
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.routing import compile_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from zdb.api.problems import problem_response
from zdb.config import Settings

__all__ = ["BodyTooLargeError", "RequestGuard", "TokenRoute", "body_limit", "has_bearer", "token_routes"]

_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_UPLOADS = re.compile(r"^/api/v1/tournaments(/.*)?$|^/referee/upload$")
_LISTS = re.compile(r"^/api/v1/lists/(imports|fide-imports)$|^/staff/lists$")
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


def has_bearer(scope: Scope) -> bool:
    """The request carries ``Authorization: Bearer <something>``."""
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").strip().partition(" ")
            return scheme.lower() == "bearer" and bool(token.strip())
    return False


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


def token_routes(prefix: str, router: APIRouter, requires_token: Callable[..., Any]) -> list[TokenRoute]:
    """The endpoints of ``router`` (included under ``prefix``) that depend on ``requires_token``."""
    found = []
    for route in router.routes:
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
    """The middleware: ``token_routes`` are the endpoints that need a token (``token_routes()``)."""

    def __init__(self, app: ASGIApp, *, settings: Settings, token_routes: Sequence[TokenRoute]) -> None:
        self.app = app
        self.settings = settings
        self.token_routes = token_routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = body_limit(self.settings, scope["path"])
        if _needs_token(self.token_routes, scope) and not has_bearer(scope):
            await self._refuse(
                scope, receive, send, 401, "unauthorized", detail="this needs 'Authorization: Bearer <token>'"
            )
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

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, slug: str, *, detail: str) -> None:
        headers = {"WWW-Authenticate": 'Bearer realm="zdb"'} if status == 401 else {}
        headers["Connection"] = "close"  # the body that was not read is not waited for
        response = problem_response(Request(scope), status, slug, detail, headers=headers)
        await response(scope, receive, send)
