"""The federation's standard top lists (all, women, U20, 50+, 65+, 75+ and their women's lists),
the same lists the embeddable views show to club websites (``zdb.ratings.top_lists``)."""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import TypeAdapter

from zdb.api.conditional import conditional_bytes
from zdb.api.openapi import problems
from zdb.endpoints.dependencies import RequestSession, get_principal
from zdb.endpoints.pagination import MAX_LIMIT
from zdb.ratings import list_queries
from zdb.ratings.schemas import StandardTopListEntry
from zdb.ratings.status_queries import results_stamp
from zdb.ratings.top_lists import TopListKind, top_list

__all__ = ["router"]

router = APIRouter(tags=["ratings"], dependencies=[Depends(get_principal)])

_ENTRIES = TypeAdapter(list[StandardTopListEntry])


@router.get(
    "/ratings/top-lists/{kind}",
    response_model=list[StandardTopListEntry],
    summary="A standard top list of the federation",
    description="The rating list's rated members, best first; age counted by birth year (u20: at most 19 this "
    "year, 50plus: at least 50); equal ratings share a rank (1, 2, 2, 4), ties ordered by DWZ, index, name; "
    "guests and people who objected to publication left out.",
    responses=problems(404),
)
def standard_top_list(
    *,
    request: Request,
    session: RequestSession,
    kind: TopListKind,
    federation: Annotated[str, Query(max_length=4, description="club-code prefix; empty: the whole DSB")] = "",
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 100,
) -> Response:
    if federation:
        list_queries.require_federation(session, federation)
    days = request.app.state.settings.complaint_days
    rows = top_list(session, kind, federation=federation, year=datetime.now(UTC).year, limit=limit, complaint_days=days)
    entries = [StandardTopListEntry(**asdict(row)) for row in rows]
    return conditional_bytes(request, _ENTRIES.dump_json(entries), results_stamp(session))
