"""Rate limits: how many requests a client may send in a window before it is answered 429.

A pure ASGI middleware that counts with the ``limits`` library (a moving window), in Redis in
production — one count for all serving processes — and in the process's memory when embedded.

What is counted, and under which key (each limit a setting of ``zdb.config.Settings``):

* the club pull (``/clubs/{code}/ratings``, ``/clubs/{code}/members.csv``,
  ``/files/rating-list.zip``, ``/ratings/changes``; the older DeWIS files ``/php/dewis/*.php``
  and the portal interface's list files) per client address: ``rate_limit_club_pull``,
  by default 120 an hour, as the DSB's club API allows;
* every other read (and the public simulator) per client address: ``rate_limit_reads``;
* a write with a token per token (a hash of it, never the token): ``rate_limit_writes``;
* a complaint filed without a token (the API's ``POST /api/v1/complaints``, the page's form) per
  client address: ``rate_limit_complaints``, by default 5 an hour.

Failed sign-ins (an unknown or revoked token) are counted where the credential is checked, by
the request guard and the pages' sign-in (``zdb.endpoints.failed_sign_ins``), so that a valid
token is never refused because others failed from the same address.

The health checks and the metrics are never limited. A 429 is a problem document with
``Retry-After`` (seconds). The client address is the connection's; behind a reverse proxy,
``zdb serve`` must be told to trust its ``X-Forwarded-For`` (uvicorn's ``--forwarded-allow-ips``).
A storage that cannot be reached (Redis away) lets requests through and logs it: the limits
protect the service, they must not take it down.
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from zdb.api.problems import problem_response
from zdb.config import Settings

__all__ = ["RateLimits", "storage_for"]

_log = logging.getLogger(__name__)

_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_CLUB_PULL = re.compile(
    r"^/api/v1/(clubs/[^/]+/(ratings|members\.csv)|files/rating-list\.zip|ratings/changes)$"
    r"|^/php/dewis/(verein|verband|spieler)\.php$|^/dsbwertungsportal/rs/dwz/dwzliste/download/[^/]+$"
)
_PORTAL, _DEWIS = "/dsbwertungsportal/", "/php/dewis/"
_UNLIMITED = re.compile(r"^/api/v1/health(/.*)?$|^/metrics$")
_PUBLIC_WRITES = frozenset({"/api/v1/simulator"})
_COMPLAINTS = frozenset({"/api/v1/complaints", "/complaints/new"})


def storage_for(settings: Settings) -> Storage:
    """Redis (``rate_limit_storage``, else the broker) in production, memory when embedded."""
    url = settings.rate_limit_storage or settings.broker_url
    if url is None or url.startswith("memory://"):
        return MemoryStorage()
    return RedisStorage(
        "async+" + url if not url.startswith("async+") else url, implementation="redispy", wrap_exceptions=True
    )


@dataclass(frozen=True, slots=True)
class _Limits:
    club_pull: RateLimitItem
    reads: RateLimitItem
    writes: RateLimitItem
    complaints: RateLimitItem


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


class RateLimits:
    """The middleware; counts in ``storage`` (``storage_for``)."""

    def __init__(self, app: ASGIApp, *, settings: Settings, storage: Storage) -> None:
        self.app = app
        self.limiter = MovingWindowRateLimiter(storage)
        self.limits = _Limits(
            club_pull=parse(settings.rate_limit_club_pull),
            reads=parse(settings.rate_limit_reads),
            writes=parse(settings.rate_limit_writes),
            complaints=parse(settings.rate_limit_complaints),
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or _UNLIMITED.match(scope["path"]):
            await self.app(scope, receive, send)
            return
        address = (scope.get("client") or ("unknown", 0))[0]
        authorization = _header(scope, b"authorization")
        item, keys = self._counted(scope, address, authorization)
        if not await self._hit(item, *keys):
            await self._refuse(scope, receive, send, item, *keys)
            return
        await self.app(scope, receive, send)

    def _counted(self, scope: Scope, address: str, authorization: str | None) -> tuple[RateLimitItem, list[str]]:
        path = scope["path"]
        if scope["method"] == "POST" and path in _COMPLAINTS and authorization is None:
            return self.limits.complaints, ["complaints", address]
        if scope["method"] in _WRITES and path not in _PUBLIC_WRITES and authorization is not None:
            token = hashlib.sha256(authorization.encode()).hexdigest()[:32]
            return self.limits.writes, ["writes", token]
        if _CLUB_PULL.match(path):
            return self.limits.club_pull, ["club-pull", address]
        return self.limits.reads, ["reads", address]

    async def _hit(self, item: RateLimitItem, *keys: str) -> bool:
        try:
            return await self.limiter.hit(item, *keys)
        except StorageError as error:
            _log.warning("rate limits not counted, the storage is out of reach: %s", error.storage_error)
            return True

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, item: RateLimitItem, *keys: str) -> None:
        try:
            reset = (await self.limiter.get_window_stats(item, *keys)).reset_time
        except StorageError:
            reset = time.time() + item.get_expiry()
        wait = max(1, math.ceil(reset - time.time()))
        detail = f"more than {item} from this client; retry in {wait} seconds"
        headers = {"Retry-After": str(wait)}
        path: str = scope["path"]
        # each door answers in its own language: the portal's clients read {"error", "error_description"},
        # the DeWIS files' scripts a plain text starting with "Fehler: "
        response: Response
        if path.startswith(_PORTAL):
            body = {"error": "too_many_requests", "error_description": detail}
            response = JSONResponse(body, status_code=429, headers=headers)
        elif path.startswith(_DEWIS):
            # with status 200, as every DeWIS error (``zdb.portal.dewis``): a PHP script reading
            # with file_get_contents gets no body of a 4xx, only the text shows it what happened
            text = f"Fehler: zu viele Anfragen von dieser Adresse; erneut in {wait} Sekunden"
            response = PlainTextResponse(text, headers={**headers, "Cache-Control": "no-store"})
        else:
            response = problem_response(Request(scope), 429, "too-many-requests", detail, headers=headers)
        await response(scope, receive, send)
