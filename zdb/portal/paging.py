"""Paging as the portal's lists take it and answer it.

A client sends ``limit`` (1…1000) and ``offset``, or ``page`` and ``size`` as one published
client does. Whether ``page`` counts from 0 or from 1 was not confirmed: it counts from 0 here,
as the Java services the portal is built on count it (``page=0`` is the first page). A list
answers ``{"data": [...], "metadata": {"totalCount": N}, "links": {...}}``; ``links`` holds
``self`` and, where there is one, ``next`` and ``prev`` (the same address with another offset).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.requests import Request

from zdb.portal.route import bad_parameter

__all__ = ["DEFAULT_LIMIT", "MAX_LIMIT", "Window", "list_answer", "window_of"]

MAX_LIMIT = 1000
#: not confirmed: the portal's default page size; a client that pages sends its own
DEFAULT_LIMIT = 100


@dataclass(frozen=True, slots=True)
class Window:
    limit: int
    offset: int


def _number(request: Request, name: str, low: int, high: int) -> int | None:
    text = request.query_params.get(name)
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise bad_parameter(name, f"must be a whole number, got {text!r}") from None
    if not low <= value <= high:
        raise bad_parameter(name, f"must be between {low} and {high}, got {value}")
    return value


def window_of(request: Request) -> Window:
    """The page a request asks for; a malformed value is a 400 naming its parameter."""
    limit = _number(request, "limit", 1, MAX_LIMIT)
    offset = _number(request, "offset", 0, 2**62)
    page = _number(request, "page", 0, 2**40)
    size = _number(request, "size", 1, MAX_LIMIT)
    if limit is not None or offset is not None:
        return Window(limit or size or DEFAULT_LIMIT, offset or 0)
    size = size or DEFAULT_LIMIT
    return Window(size, (page or 0) * size)


def _link(request: Request, window: Window, offset: int) -> str:
    params = {k: v for k, v in request.query_params.items() if k not in ("limit", "offset", "page", "size")}
    return str(request.url.replace_query_params(**params, limit=window.limit, offset=offset))


def list_answer(request: Request, window: Window, data: list[dict[str, Any]], total: int) -> dict[str, Any]:
    links = {"self": _link(request, window, window.offset)}
    if window.offset + len(data) < total:
        links["next"] = _link(request, window, window.offset + window.limit)
    if window.offset > 0:
        links["prev"] = _link(request, window, max(0, window.offset - window.limit))
    return {"data": data, "metadata": {"totalCount": total}, "links": links}
