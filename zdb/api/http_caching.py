"""What a shared cache (the proxy in front of the API processes, a CDN) may keep: the
``Cache-Control`` of every answer, decided in one place for every door (API, pages, the
club-software door ``zdb.portal``, the DeWIS files).

The rule, first match wins (an answer that says ``no-store`` or ``private`` itself keeps it):

1. a caller who identified himself — an ``Authorization`` header, or the pages' session cookie —
   or an answer that sets a cookie: ``private``. A token's read is ``private, no-cache`` (club
   software keeps its copy and asks again with the ETag; no shared cache keeps it); a signed-in
   page is ``private, no-store`` (an office computer is shared: nothing of a referee's pages
   stays in its browser);
2. anything but a GET or HEAD, any status but 200 and 304 (a refusal, an error, a redirect),
   and the live state of the service (health, metrics, the caller): ``no-store``. A proxy never
   keeps a 4xx or a 5xx;
3. a published edition and what is read from it (``/api/v1/editions/{name}``, its ratings, a
   file or list asked for with ``edition=``): ``public, max-age=<edition>, immutable``. The
   figures of an edition never change (``zdb.editions.service``); the names beside them are the
   register's (a corrected name, a person who withdrew his consent to be named), so the
   lifetime is bounded — a day by default — rather than a year: what the register corrects
   reaches every cache within it. ``…/changes`` compares with the edition before, which an
   edition published later for an earlier day may change: it is live;
4. the pages' static files: ``public, max-age=3600`` (their addresses carry no version);
5. every other public read (cards, lists, pages, club pulls, the portal's lists):
   ``public, max-age=<live>, stale-while-revalidate=<stale>`` — a list may be that many
   seconds old at a cache, and the proxy answers from its copy while it asks again.

Every answer varies by ``Authorization`` and the pages' by ``Cookie`` (the language kept in a
cookie), so that a cache that ignores the rule above still never answers one caller with
another's copy.

A GET answer of 200 without an ``ETag`` (the pages, the portal's JSON, the DeWIS files) gets
one here, a hash of its exact bytes, and ``If-None-Match`` with it answers a bodiless 304: the
proxy and the browsers revalidate every answer, not only the API's. Answers larger than
``_MAX_TAGGED`` pass untagged, as they come.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from zdb.api.conditional import etag_matches

__all__ = ["CachePolicy", "HttpCaching", "cache_control"]

NO_STORE = "no-store"
PRIVATE_TOKEN = "private, no-cache"
PRIVATE_SESSION = "private, no-store"

#: the bodies buffered to tag them: larger answers are streamed untagged
_MAX_TAGGED = 4 * 1024 * 1024

#: the live state of the service: never kept
_LIVE_STATE = re.compile(r"^(/metrics$|/api/v1/health(/.*)?$|/api/v1/me$|/api/v1/audit(/.*)?$)")
#: a published edition and what is read from it by its name (the changes compare: live)
_EDITION_PATH = re.compile(r"^/api/v1/editions/[^/]+(/ratings)?$")
_STATIC = "/static/"
_CACHEABLE_STATUS = frozenset({200, 304})


@dataclass(frozen=True, slots=True)
class CachePolicy:
    """The lifetimes of the public answers, in seconds (``zdb.config.Settings``)."""

    live_max_age: int = 30
    stale_while_revalidate: int = 60
    edition_max_age: int = 86400
    #: the pages' session cookie (``zdb.web.referee_session``; the wiring names it)
    session_cookie: str = "zdb_session"


def _has_session(headers: Headers, name: str) -> bool:
    cookie = headers.get("cookie", "")
    return any(part.strip().startswith(f"{name}=") for part in cookie.split(";"))


def _from_edition(path: str, query: str) -> bool:
    if _EDITION_PATH.match(path):
        return True
    # a list or file asked for as published: edition=<name> with a name
    return any(pair.startswith("edition=") and pair != "edition=" for pair in query.split("&"))


def cache_control(
    policy: CachePolicy, *, method: str, path: str, query: str, request: Headers, status: int, sets_cookie: bool
) -> str:
    """The ``Cache-Control`` of one answer (the rule of the module's docstring)."""
    if "authorization" in request:
        return PRIVATE_TOKEN if method in ("GET", "HEAD") and status in _CACHEABLE_STATUS else NO_STORE
    if _has_session(request, policy.session_cookie) or sets_cookie:
        return PRIVATE_SESSION
    if method not in ("GET", "HEAD") or status not in _CACHEABLE_STATUS or _LIVE_STATE.match(path):
        return NO_STORE
    if _from_edition(path, query):
        return f"public, max-age={policy.edition_max_age}, immutable"
    if path.startswith(_STATIC):
        return "public, max-age=3600"
    return f"public, max-age={policy.live_max_age}, stale-while-revalidate={policy.stale_while_revalidate}"


def _vary(headers: MutableHeaders, *names: str) -> None:
    present = [v.strip() for v in headers.get("vary", "").split(",") if v.strip()]
    for name in names:
        if name.lower() not in (p.lower() for p in present):
            present.append(name)
    headers["Vary"] = ", ".join(present)


class HttpCaching:
    """The middleware: sets ``Cache-Control`` and ``Vary`` on every answer, and tags the GET
    answers that carry no ``ETag`` (answering 304 to a matching ``If-None-Match``)."""

    def __init__(self, app: ASGIApp, *, policy: CachePolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Headers(scope=scope)
        method: str = scope["method"]
        path: str = scope["path"]
        query = scope.get("query_string", b"").decode("latin-1")
        held: list[Message] = []  # the start and the body parts of an answer being tagged
        size = 0

        def decide(message: Message) -> bool:
            """Sets the headers of the answer's start; whether its body is to be tagged."""
            headers = MutableHeaders(scope=message)
            status: int = message["status"]
            own = headers.get("cache-control", "")
            # an answer that forbids keeping itself (a token's issue, a refusal answered with 200
            # as the DeWIS files do) keeps its own word: it can only be stricter
            kept = "no-store" in own or "private" in own
            headers["Cache-Control"] = (
                own
                if kept
                else cache_control(
                    self.policy,
                    method=method,
                    path=path,
                    query=query,
                    request=request,
                    status=status,
                    sets_cookie="set-cookie" in headers,
                )
            )
            if path.startswith("/api/"):
                _vary(headers, "Authorization")
            else:  # the pages: their language may come from a cookie
                _vary(headers, "Authorization", "Cookie")
            streamed = headers.get("content-type", "").startswith("text/event-stream")  # never held back
            return method == "GET" and status == 200 and "etag" not in headers and not streamed

        async def tagged(message: Message) -> None:
            nonlocal size
            if message["type"] == "http.response.start":
                if decide(message):
                    held.append(message)
                    return
                await send(message)
                return
            if not held:
                await send(message)
                return
            held.append(message)
            size += len(message.get("body", b""))
            if size > _MAX_TAGGED:  # too large to hold: sent as it comes, untagged
                for part in held:
                    await send(part)
                held.clear()
                return
            if message.get("more_body", False):
                return
            await _send_tagged(held, request, send)
            held.clear()

        await self.app(scope, receive, tagged)


async def _send_tagged(held: list[Message], request: Headers, send: Send) -> None:
    start, parts = held[0], held[1:]
    body = b"".join(part.get("body", b"") for part in parts)
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = MutableHeaders(scope=start)
    headers["ETag"] = etag
    if etag_matches(request.get("if-none-match"), etag):
        del headers["content-length"]
        if "content-type" in headers:
            del headers["content-type"]
        await send({**start, "status": 304})
        await send({"type": "http.response.body", "body": b"", "more_body": False})
        return
    await send(start)
    await send({"type": "http.response.body", "body": body, "more_body": False})
