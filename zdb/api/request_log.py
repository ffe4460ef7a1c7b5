"""Structured logs: one JSON object a line, each carrying the id of the request it belongs to.

Every request gets an id — the client's ``X-Request-ID`` when it is a sane one (letters,
digits, ``._-``, at most 64), else a new one — answered back in ``X-Request-ID`` and carried by
every log record written while the request runs (``request_id``), so that a problem a client
reports can be found in the log. One access line per request (logger ``zdb.access``) tells
method, path, status, duration and client address; never a header, never a token, and never
the query string: a search's query names a person (``players?name=mueller``), a page's query
may carry a sign-in token, so the rule is the simplest that cannot leak — the path only. (Path
parameters are person numbers, club codes and ids, never names.) One path is itself a key: a
complainant's private link (``/complaints/follow/{secret}``, the page and the API) opens his
complaint to whoever holds it, so its last part is written as ``<withheld>`` (``logged_path``);
the link the complainant gets is not changed.

Both formats replace uvicorn's own access line, which writes the path *with* its query:
``ZDB_LOG_FORMAT=json`` (``Settings.log_format``) makes every handler of the root logger (and
uvicorn's) write JSON; ``text`` writes ``zdb.access`` and the other records as plain lines
where nothing else configured the root logger.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "JsonFormatter",
    "RequestLog",
    "TextFormatter",
    "configure_json_logs",
    "configure_text_logs",
    "logged_path",
]

_REQUEST_ID: ContextVar[str | None] = ContextVar("zdb_request_id", default=None)
_SANE = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
#: a path whose last part is a key: the complainant's private link, under any prefix
_KEYED = re.compile(r"(/complaints/follow/)[^/]*")
WITHHELD = "<withheld>"
_access = logging.getLogger("zdb.access")
#: what a record carries of its own, beside the fields given as ``extra``
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "request_id", "request"}


_make_record = logging.getLogRecordFactory()


def _record_with_request_id(*args: Any, **kwargs: Any) -> logging.LogRecord:
    """Every record, made while a request runs, carries its id (set as it is made: a handler
    may format it later, elsewhere)."""
    record = _make_record(*args, **kwargs)
    if not hasattr(record, "request_id"):
        record.request_id = _REQUEST_ID.get()
    return record


if getattr(_make_record, "__name__", "") != _record_with_request_id.__name__:
    logging.setLogRecordFactory(_record_with_request_id)


def logged_path(path: str) -> str:
    """The path as a log may write it: a private link's key withheld."""
    return _KEYED.sub(rf"\g<1>{WITHHELD}", path)


class JsonFormatter(logging.Formatter):
    """A record as one JSON object: time, level, logger, message, request id, its extras."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
        }
        entry |= {key: value for key, value in record.__dict__.items() if key not in _STANDARD}
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """A record as one plain line: time, level, logger, the request's id (``-`` outside a
    request), message."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(request)s] %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 - logging's name
        record.request = getattr(record, "request_id", None) or "-"
        return super().formatMessage(record)


def _root_with_handler() -> logging.Logger:
    """The root logger, given a handler to stderr at INFO when it has none (uvicorn configures
    only its own loggers), so that ``zdb.access`` is written at all."""
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.StreamHandler())
        root.setLevel(logging.INFO)
    return root


def _without_uvicorn_access() -> None:
    # uvicorn's access line carries the query string; zdb.access says the same without it
    logging.getLogger("uvicorn.access").disabled = True


def configure_json_logs() -> None:
    """JSON on every handler of the root logger and of uvicorn's loggers (a handler to stderr
    for the root when it has none)."""
    root = _root_with_handler()
    for logger in (root, logging.getLogger("uvicorn"), logging.getLogger("uvicorn.error")):
        for handler in logger.handlers:
            handler.setFormatter(JsonFormatter())
    _without_uvicorn_access()


def configure_text_logs() -> None:
    """Plain lines: a handler for the root logger where it has none (a root configured by
    someone else keeps its format), and ``zdb.access`` instead of uvicorn's access line."""
    root = logging.getLogger()
    if not root.handlers:
        _root_with_handler().handlers[0].setFormatter(TextFormatter())
    _without_uvicorn_access()


class RequestLog:
    """The middleware: the request id, and the access line."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        sent = dict(scope.get("headers", ())).get(b"x-request-id", b"").decode("latin-1")
        request_id = sent if _SANE.match(sent) else uuid.uuid4().hex
        token = _REQUEST_ID.set(request_id)
        started = time.perf_counter()
        status = 500

        async def with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                MutableHeaders(scope=message)["X-Request-ID"] = request_id
            await send(message)

        try:
            await self.app(scope, receive, with_id)
        finally:
            path = logged_path(scope["path"])
            _access.info(
                "%s %s %s",
                scope["method"],
                path,
                status,
                extra={
                    "method": scope["method"],
                    "path": path,
                    "status": status,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                    "client": (scope.get("client") or ("", 0))[0],
                },
            )
            _REQUEST_ID.reset(token)
