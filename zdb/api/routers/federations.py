"""The federation tree and the clubs."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Response

from zdb.api.conditional import conditional_json
from zdb.api.openapi import problems
from zdb.audit.reader import last_write_at
from zdb.endpoints.dependencies import Paging, RequestSession, get_principal
from zdb.endpoints.pagination import Page
from zdb.federations import queries
from zdb.federations.schemas import ClubOut, FederationOut
from zdb.players import club_queries

__all__ = ["ClubCode", "router"]

router = APIRouter(tags=["federations and clubs"], dependencies=[Depends(get_principal)])

ClubCode = Annotated[str, Path(min_length=5, max_length=5, description="the 5-character club code (VKZ/ZPS)")]


@router.get("/federations", response_model=Page[FederationOut], summary="Federations of a subtree")
def federations(
    *,
    request: Request,
    session: RequestSession,
    paging: Paging,
    under: Annotated[
        str | None, Query(max_length=4, description="the subtree's club-code prefix; absent: the whole tree")
    ] = None,
) -> Response:
    items, total = queries.list_federations(session, under=under, limit=paging.limit, offset=paging.offset)
    return conditional_json(request, paging.page(items, total), last_write_at(session))


@router.get("/clubs", response_model=Page[ClubOut], summary="Clubs of a subtree, by code")
def clubs(
    *,
    request: Request,
    session: RequestSession,
    paging: Paging,
    federation: Annotated[str | None, Query(max_length=5, description="club-code prefix of the subtree")] = None,
    q: Annotated[str | None, Query(max_length=200, description="text in the name, or the code")] = None,
) -> Response:
    items, total = club_queries.list_clubs(
        session, federation=federation, text=q, limit=paging.limit, offset=paging.offset
    )
    return conditional_json(request, paging.page(items, total), last_write_at(session))


@router.get("/clubs/{code}", response_model=ClubOut, summary="One club", responses=problems(404))
def club(*, request: Request, session: RequestSession, code: ClubCode) -> Response:
    return conditional_json(request, club_queries.club(session, code), last_write_at(session))
