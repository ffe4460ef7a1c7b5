"""The impact of recalculations: every run with what it moved, one run's changes per person,
and what the last evaluation of a tournament moved (a referee sees his own submission's)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request, Response

from zdb.api.conditional import conditional_json
from zdb.api.openapi import problems
from zdb.endpoints.dependencies import INT32_MAX, Paging, RequestSession, TournamentId, get_principal
from zdb.endpoints.pagination import Page
from zdb.ratings import impact_queries as queries
from zdb.ratings.impact_queries import RunChangeOut, RunOut

__all__ = ["router"]

router = APIRouter(tags=["ratings"], dependencies=[Depends(get_principal)])

RunId = Annotated[int, Path(ge=1, le=INT32_MAX, description="the run's id")]


@router.get("/recalculation/runs", response_model=Page[RunOut], summary="Recalculation runs and what each moved")
def runs(*, request: Request, session: RequestSession, paging: Paging) -> Response:
    items, total = queries.runs(session, limit=paging.limit, offset=paging.offset)
    return conditional_json(request, paging.page(items, total))


@router.get(
    "/recalculation/runs/{run_id}/changes",
    response_model=Page[RunChangeOut],
    summary="One run's changes: each person's rating and index before and after, the largest first",
    responses=problems(404),
)
def run_changes(*, request: Request, session: RequestSession, paging: Paging, run_id: RunId) -> Response:
    items, total = queries.run_changes(session, run_id, limit=paging.limit, offset=paging.offset)
    return conditional_json(request, paging.page(items, total))


@router.get(
    "/tournaments/{tournament_id}/impact",
    response_model=RunOut,
    summary="What the last evaluation of this tournament moved",
    responses=problems(404),
)
def tournament_impact(*, request: Request, session: RequestSession, tournament_id: TournamentId) -> Response:
    return conditional_json(request, queries.tournament_impact(session, tournament_id))
