"""Conditional GETs: an ``ETag`` (a hash of the exact body) and ``Last-Modified`` on every
answer of a GET; ``If-None-Match`` with a matching tag answers 304 without a body.

The tag is decisive: it changes with every byte of the answer, and it differs between callers
who may see different fields. ``Last-Modified`` is the latest change the answer's data records
(a rating written, a tournament submitted or withdrawn, a player created, a recalculation run);
where the data records none, the time this server started.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from email.utils import format_datetime, parsedate_to_datetime

from fastapi import Request, Response
from pydantic import BaseModel

from zdb.common.utc import as_utc

__all__ = ["conditional_bytes", "conditional_json", "etag_matches", "not_modified"]


def etag_matches(header: str | None, etag: str) -> bool:
    """Weak comparison (RFC 9110 §13.1.2): ``W/`` prefixes are ignored; ``*`` matches."""
    if header is None:
        return False
    wanted = etag.removeprefix("W/")
    for candidate in header.split(","):
        tag = candidate.strip()
        if tag == "*" or tag.removeprefix("W/") == wanted:
            return True
    return False


def conditional_json(request: Request, model: BaseModel, *stamps: datetime | None) -> Response:
    return conditional_bytes(request, model.model_dump_json().encode("utf-8"), *stamps)


def conditional_bytes(request: Request, body: bytes, *stamps: datetime | None) -> Response:
    """The JSON ``body`` with its tag and the latest of ``stamps``, or 304 when the tag matches."""
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    known = [as_utc(s) for s in stamps if s is not None]
    modified: datetime = max(known) if known else request.app.state.started_at
    headers = {
        "ETag": etag,
        "Last-Modified": format_datetime(modified.replace(microsecond=0), usegmt=True),
        "Cache-Control": "no-cache",
        "Vary": "Authorization",
    }
    if not_modified(request, etag, modified):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


def not_modified(request: Request, etag: str, modified: datetime) -> bool:
    """Whether the client's validators say it holds this answer: ``If-None-Match`` when sent
    (it wins), else ``If-Modified-Since``."""
    if "if-none-match" in request.headers:
        return etag_matches(request.headers.get("if-none-match"), etag)
    return _not_modified_since(request, modified)


def _not_modified_since(request: Request, modified: datetime) -> bool:
    """RFC 9110 §13.1.3: If-Modified-Since counts only without If-None-Match, on GET and HEAD;
    a date that cannot be read is ignored. Last-Modified is to the second, so is the comparison."""
    if request.method not in ("GET", "HEAD"):
        return False
    since = request.headers.get("if-modified-since")
    if not since:
        return False
    try:
        moment = parsedate_to_datetime(since)
    except (TypeError, ValueError, IndexError):
        return False
    if moment.tzinfo is None:
        return False
    return as_utc(modified).replace(microsecond=0) <= moment
