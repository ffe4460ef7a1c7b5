"""Ratings: top lists, the club software's member list (a hot read: ``zdb.api.hot_reads``) and
change feed, and the status of the recalculation."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request, Response

from zdb.api.conditional import conditional_json
from zdb.api.hot_reads import club_listed_answer, club_ratings_answer
from zdb.api.openapi import problems
from zdb.api.routers.federations import ClubCode
from zdb.editions.sources import list_source
from zdb.endpoints.dependencies import Paging, QueryDate, QueryDateTime, ReadCaller, RequestSession, get_principal
from zdb.endpoints.pagination import MAX_LIMIT, Page
from zdb.ratings import change_feed_queries, status_queries, top_list_queries
from zdb.ratings.schemas import ClubMemberRating, RatingChangeFeed, RecalcStatus, TopListEntry

__all__ = ["router"]

router = APIRouter(tags=["ratings"])
#: every route but the hot read looks at the token with the request's session
_AUTHENTICATED = [Depends(get_principal)]

#: a club's member list is answered in one call: its pages are larger than other lists'
CLUB_LIMIT = 5000

#: a list as of a day, from the stored history; or a published edition (zdb.editions)
AtDate = Annotated[QueryDate | None, Query(description="the list as of this day (YYYY-MM-DD), from the history")]
EditionName = Annotated[
    str | None, Query(max_length=20, description="a published edition instead of the live list", examples=["2026-Q4"])
]
Prefix = Annotated[str | None, Query(max_length=5, description="club-code prefix of the federation subtree")]


@router.get(
    "/ratings/top",
    response_model=Page[TopListEntry],
    summary="Top list",
    dependencies=_AUTHENTICATED,
    description="Live, as of a day (at=, from the history), or as published (edition=).",
    responses=problems(404),
)
def top_list(
    *,
    request: Request,
    session: RequestSession,
    paging: Paging,
    federation: Prefix = None,
    age_min: Annotated[int | None, Query(ge=0, le=120, description="year minus birth year, at least")] = None,
    age_max: Annotated[int | None, Query(ge=0, le=120, description="year minus birth year, at most")] = None,
    sex: Literal["M", "F", "D"] | None = None,
    active: Annotated[
        bool | None, Query(description="true: an active membership; false: passive memberships only")
    ] = None,
    year: Annotated[
        int | None, Query(ge=1900, le=2200, description="the year ages refer to; default: this year")
    ] = None,
    at: AtDate = None,
    edition: EditionName = None,
) -> Response:
    source = list_source(session, at=at, edition=edition)
    items, total, stamp = top_list_queries.top_list(
        session,
        federation=federation,
        age_min=age_min,
        age_max=age_max,
        sex=sex,
        active=active,
        year=year or datetime.now(UTC).year,
        limit=paging.limit,
        offset=paging.offset,
        source=source,
        complaint_days=request.app.state.settings.complaint_days,
    )
    return conditional_json(request, paging.page(items, total), stamp, status_queries.results_stamp(session))


@router.get(
    "/clubs/{code}/ratings",
    response_model=Page[ClubMemberRating],
    summary="A club's members with their ratings (club software)",
    description="Every current member with rating, index, last evaluation (ISO year-week) and FIDE data, in one "
    "call. The club's own token (and a referee of its region, and an admin) also sees the non-public fields. "
    "With changed_since, only members whose rating was written since then. With at= (the members and ratings of "
    "that day, from the history) or edition= (as published), the list as it was listed then.",
    responses=problems(404),
)
async def club_ratings(
    *,
    request: Request,
    caller: ReadCaller,
    code: ClubCode,
    changed_since: Annotated[QueryDateTime | None, Query(description="ISO date-time; inclusive")] = None,
    limit: Annotated[int, Query(ge=1, le=CLUB_LIMIT)] = CLUB_LIMIT,
    offset: Annotated[int, Query(ge=0, le=2**62)] = 0,
    at: AtDate = None,
    edition: EditionName = None,
) -> Response:
    if at is not None or edition is not None:
        return await club_listed_answer(
            request, caller, code, at=at, edition=edition, changed_since=changed_since, limit=limit, offset=offset
        )
    return await club_ratings_answer(request, caller, code, changed_since=changed_since, limit=limit, offset=offset)


@router.get(
    "/ratings/changes",
    response_model=RatingChangeFeed,
    summary="Change feed: players whose rating was written since a moment",
    description="Poll with the answer's next_changed_since: the polls are inclusive, so no change falls between two "
    "(a player may appear twice).",
    dependencies=_AUTHENTICATED,
)
def rating_changes(
    *,
    request: Request,
    session: RequestSession,
    changed_since: Annotated[QueryDateTime, Query(description="ISO date-time; inclusive")],
    federation: Prefix = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = MAX_LIMIT,
    offset: Annotated[int, Query(ge=0, le=2**62)] = 0,
) -> Response:
    items, total, stamp, following = change_feed_queries.rating_changes(
        session, since=changed_since, federation=federation, limit=limit, offset=offset
    )
    feed = RatingChangeFeed(items=items, total=total, limit=limit, offset=offset, next_changed_since=following)
    return conditional_json(request, feed, stamp, status_queries.results_stamp(session))


@router.get(
    "/recalculation", response_model=RecalcStatus, summary="Status of the recalculation", dependencies=_AUTHENTICATED
)
def recalculation(*, request: Request, session: RequestSession) -> Response:
    return conditional_json(request, status_queries.recalc_status(session), status_queries.results_stamp(session))
