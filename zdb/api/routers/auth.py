"""The caller's own role, and the audit log (admin)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from zdb.api.conditional import conditional_json
from zdb.api.openapi import problems
from zdb.audit.reader import AuditFilter, audit_page
from zdb.auth.schemas import CallerOut
from zdb.endpoints.dependencies import INT32_MAX, INT64_MAX, Caller, Paging, QueryDateTime, RequestSession
from zdb.endpoints.pagination import Page
from zdb.office.schemas import AuditEntryWithActor

__all__ = ["router"]

router = APIRouter(tags=["access"])


@router.get("/me", response_model=CallerOut, summary="Who the token says you are")
def me(*, request: Request, caller: Caller) -> Response:
    answer = CallerOut(role=caller.role, scope=caller.scope, token_prefix=caller.token_prefix)  # type: ignore[arg-type]
    return conditional_json(request, answer)


@router.get(
    "/audit-log",
    response_model=Page[AuditEntryWithActor],
    summary="Every write, newest first (admin)",
    description="Each entry names who (the token's id and label), when, what and on which target; the office's "
    "changes carry the values before and after in `detail`. Filters combine.",
    responses=problems(403),
)
def audit_log(
    *,
    request: Request,
    session: RequestSession,
    caller: Caller,
    paging: Paging,
    action: Annotated[str | None, Query(max_length=60, examples=["token.create"])] = None,
    person: Annotated[int | None, Query(ge=1, le=INT64_MAX, description="entries on this person number")] = None,
    tournament: Annotated[int | None, Query(ge=1, le=INT32_MAX, description="entries on this tournament")] = None,
    actor: Annotated[str | None, Query(max_length=200, description="a token's label, or its id")] = None,
    since: Annotated[QueryDateTime | None, Query(description="from this moment on (inclusive)")] = None,
    until: Annotated[QueryDateTime | None, Query(description="before this moment")] = None,
) -> Response:
    caller.require("admin")
    wanted = AuditFilter(action=action, person=person, tournament=tournament, actor=actor, since=since, until=until)
    entries, total, newest = audit_page(session, wanted, limit=paging.limit, offset=paging.offset)
    items = [
        AuditEntryWithActor(
            id=e.id,
            at=e.at,
            actor_token_id=e.actor_token_id,
            actor_label=label,
            action=e.action,
            target=e.target,
            detail=e.detail,
        )
        for e, label in entries
    ]
    return conditional_json(request, paging.page(items, total), newest)
