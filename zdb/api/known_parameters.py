"""Unknown query parameters are refused (400), never ignored: a misspelt ``edtion=2026-Q4``
would otherwise be answered with the live list, and the caller would not know.

A route dependency: the parameters a route knows are those its endpoint and its dependencies
declare, read once per route from FastAPI's own description of it.
"""

from __future__ import annotations

from fastapi import HTTPException, Request
from starlette.routing import BaseRoute

__all__ = ["refuse_unknown_parameters"]

_KNOWN: dict[int, frozenset[str]] = {}


def _known(route: BaseRoute) -> frozenset[str]:
    key = id(route)
    if key not in _KNOWN:
        dependant = getattr(route, "dependant", None)
        _KNOWN[key] = frozenset(str(getattr(p, "alias", "")) for p in _queries(dependant))
    return _KNOWN[key]


def _queries(dependant: object) -> list[object]:
    """The query parameters of a dependant and of its dependencies, all the way down."""
    found: list[object] = list(getattr(dependant, "query_params", []))
    for sub in getattr(dependant, "dependencies", []):
        found.extend(_queries(sub))
    return found


async def refuse_unknown_parameters(request: Request) -> None:
    # async: no I/O, so it runs on the event loop, not in the threadpool (the hot reads use it too)
    route = request.scope.get("route")
    if route is None:
        return
    unknown = sorted(set(request.query_params) - _known(route))
    if unknown:
        known = ", ".join(sorted(_known(route))) or "none"
        raise HTTPException(400, f"unknown query parameter {', '.join(unknown)}; this address knows: {known}")
