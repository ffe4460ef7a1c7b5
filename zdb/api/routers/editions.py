"""Published editions of the rating list: staff publish one (admin); everyone reads them, a
club's members for club software (``club=``), and what changed since the edition before."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.responses import JSONResponse

from zdb.api.conditional import conditional_json
from zdb.api.openapi import problems
from zdb.audit.writer import record_entry
from zdb.auth.models import ApiToken
from zdb.auth.principal import Principal
from zdb.editions import queries
from zdb.editions.schemas import EditionChange, EditionIn, EditionOut, EditionRow
from zdb.editions.service import publish_edition
from zdb.endpoints.dependencies import Caller, Paging, RequestSession
from zdb.endpoints.pagination import Page

__all__ = ["requires_admin", "router"]

router = APIRouter(prefix="/editions", tags=["ratings"])

EditionName = Annotated[str, Path(min_length=1, max_length=20, description="the edition's name", examples=["2026-Q4"])]


def requires_admin(caller: Caller) -> Principal:
    caller.require("admin")
    return caller


@router.post(
    "",
    status_code=201,
    response_model=EditionOut,
    summary="Publish an edition of the rating list (admin)",
    description="The ratings and indices after every event up to and including `date`, copied once: later "
    "tournaments never change a published edition. Refused (409) while a recalculation that reaches back to the "
    "date is pending, and for a name published already.",
    responses=problems(401, 403, 409),
)
def publish(
    *, session: RequestSession, caller: Annotated[Principal, Depends(requires_admin)], body: EditionIn
) -> Response:
    token = None if caller.token_id is None else session.get(ApiToken, caller.token_id)
    by = token.label if token is not None and token.label else f"token {caller.token_id}"
    made = publish_edition(session, body.date, name=body.name, by=by, today=datetime.now(UTC).date())
    record_entry(session, caller.token_id, "edition.publish", f"edition {made.name}", as_of=made.as_of)
    out = queries.edition(session, made.name)
    return JSONResponse(
        out.model_dump(mode="json"), status_code=201, headers={"Location": f"/api/v1/editions/{made.name}"}
    )


@router.get("", response_model=Page[EditionOut], summary="Published editions, the newest first")
def editions(*, request: Request, session: RequestSession, paging: Paging) -> Response:
    items, total = queries.editions(session, limit=paging.limit, offset=paging.offset)
    return conditional_json(request, paging.page(items, total))


@router.get("/{name}", response_model=EditionOut, summary="One edition", responses=problems(404))
def edition(*, request: Request, session: RequestSession, name: EditionName) -> Response:
    return conditional_json(request, queries.edition(session, name))


@router.get(
    "/{name}/ratings",
    response_model=Page[EditionRow],
    summary="An edition's list, best first (club software: club=)",
    responses=problems(404),
)
def edition_ratings(
    *,
    request: Request,
    session: RequestSession,
    paging: Paging,
    name: EditionName,
    club: Annotated[
        str | None, Query(min_length=5, max_length=5, description="the club's members on the edition's day")
    ] = None,
) -> Response:
    items, total = queries.edition_rows(session, name, club=club, limit=paging.limit, offset=paging.offset)
    return conditional_json(request, paging.page(items, total))


@router.get(
    "/{name}/changes",
    response_model=Page[EditionChange],
    summary="What changed since the previous edition: new, changed and removed players",
    responses=problems(404),
)
def edition_changes(*, request: Request, session: RequestSession, paging: Paging, name: EditionName) -> Response:
    items, total = queries.edition_changes(session, name, limit=paging.limit, offset=paging.offset)
    return conditional_json(request, paging.page(items, total))
