"""The caller's own role, and the audit log (admin)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from zdb.api.conditional import conditional_json
from zdb.api.openapi import problems
from zdb.auth import repository
from zdb.auth.schemas import AuditEntryOut, CallerOut
from zdb.endpoints.dependencies import Caller, Paging, RequestSession
from zdb.endpoints.pagination import Page

__all__ = ["router"]

router = APIRouter(tags=["access"])


@router.get("/me", response_model=CallerOut, summary="Who the token says you are")
def me(*, request: Request, caller: Caller) -> Response:
    answer = CallerOut(role=caller.role, scope=caller.scope, token_prefix=caller.token_prefix)  # type: ignore[arg-type]
    return conditional_json(request, answer)


@router.get(
    "/audit-log",
    response_model=Page[AuditEntryOut],
    summary="Every write, newest first (admin)",
    responses=problems(403),
)
def audit_log(
    *,
    request: Request,
    session: RequestSession,
    caller: Caller,
    paging: Paging,
    action: Annotated[str | None, Query(max_length=60, examples=["token.create"])] = None,
) -> Response:
    caller.require("admin")
    entries, total, newest = repository.audit_entries(session, action=action, limit=paging.limit, offset=paging.offset)
    items = [
        AuditEntryOut(
            id=e.id, at=e.at, actor_token_id=e.actor_token_id, action=e.action, target=e.target, detail=e.detail
        )
        for e in entries
    ]
    return conditional_json(request, paging.page(items, total), newest)
