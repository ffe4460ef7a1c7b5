"""Player search and the player card (a hot read: ``zdb.api.hot_reads``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response

from zdb.api.conditional import conditional_json
from zdb.api.hot_reads import player_card_answer
from zdb.api.openapi import problems
from zdb.endpoints.dependencies import (
    INT64_MAX,
    Paging,
    PersonNumber,
    QueryDate,
    ReadCaller,
    RequestSession,
    get_principal,
)
from zdb.endpoints.pagination import Page
from zdb.players.schemas import PlayerSummary
from zdb.ratings import player_queries
from zdb.ratings.card_schemas import PlayerCard
from zdb.ratings.status_queries import results_stamp

__all__ = ["router"]

router = APIRouter(prefix="/players", tags=["players"])


@router.get(
    "",
    response_model=Page[PlayerSummary],
    summary="Search players by name, club or FIDE id",
    dependencies=[Depends(get_principal)],
)
def search_players(
    *,
    request: Request,
    session: RequestSession,
    paging: Paging,
    name: Annotated[
        str | None,
        Query(
            max_length=200,
            description='Every word must occur in the name, ignoring case, accents and umlauts: "Müller" = "Mueller" '
            '= "muller"; "Müller, Anna" finds Anna Müller.',
        ),
    ] = None,
    club: Annotated[str | None, Query(min_length=5, max_length=5, description="current members of this club")] = None,
    fide_id: Annotated[int | None, Query(ge=1, le=INT64_MAX)] = None,
) -> Response:
    items, total, stamp = player_queries.search_players(
        session, name=name, club=club, fide_id=fide_id, limit=paging.limit, offset=paging.offset
    )
    return conditional_json(request, paging.page(items, total), stamp, results_stamp(session))


_MERGED: dict[int | str, dict[str, Any]] = {
    308: {
        "description": "The person number was merged into another: Location names the surviving record's card.",
        "headers": {"Location": {"description": "the surviving record's card", "schema": {"type": "string"}}},
    }
}


@router.get("/{pkz}", response_model=PlayerCard, summary="The player card", responses={**problems(404), **_MERGED})
async def player_card(
    *,
    request: Request,
    caller: ReadCaller,
    pkz: PersonNumber,
    at: Annotated[QueryDate | None, Query(description="also answer the rating on this date (YYYY-MM-DD)")] = None,
) -> Response:
    return await player_card_answer(request, caller, pkz, at)
