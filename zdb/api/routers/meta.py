"""The API about itself: the problem types its errors name, and a health check."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import BaseModel
from sqlalchemy import text

from zdb.api.conditional import conditional_json
from zdb.api.dependencies import RequestSession, get_principal
from zdb.api.openapi import problems
from zdb.api.problems import PROBLEM_TYPES, ProblemType
from zdb.errors import NotFoundError

__all__ = ["Health", "router"]

router = APIRouter(tags=["meta"], dependencies=[Depends(get_principal)])


class Health(BaseModel):
    status: Literal["ok"]
    database: Literal["ok"]


@router.get(
    "/problems/{slug}", response_model=ProblemType, summary="What a problem type means", responses=problems(404)
)
def problem_type(*, request: Request, slug: Annotated[str, Path(examples=["not-found"])]) -> Response:
    if slug not in PROBLEM_TYPES:
        raise NotFoundError(f"no problem type is called {slug!r}")
    return conditional_json(request, PROBLEM_TYPES[slug])


@router.get("/health", response_model=Health, summary="The server and its database answer")
def health(*, request: Request, session: RequestSession) -> Response:
    session.execute(text("SELECT 1"))
    return conditional_json(request, Health(status="ok", database="ok"))
