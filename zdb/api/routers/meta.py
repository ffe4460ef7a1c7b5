"""The API about itself: the problem types its errors name (health: ``zdb.api.routers.health``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request, Response

from zdb.api.conditional import conditional_json
from zdb.api.openapi import problems
from zdb.api.problems import PROBLEM_TYPES, ProblemType
from zdb.endpoints.dependencies import get_principal
from zdb.errors import NotFoundError

__all__ = ["router"]

router = APIRouter(tags=["meta"], dependencies=[Depends(get_principal)])


@router.get(
    "/problems/{slug}", response_model=ProblemType, summary="What a problem type means", responses=problems(404)
)
def problem_type(*, request: Request, slug: Annotated[str, Path(examples=["not-found"])]) -> Response:
    if slug not in PROBLEM_TYPES:
        raise NotFoundError(f"no problem type is called {slug!r}")
    return conditional_json(request, PROBLEM_TYPES[slug])
