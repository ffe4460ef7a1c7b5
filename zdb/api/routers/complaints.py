"""Complaints (Reklamation): filed by a player (person number and e-mail address, no token), a
club, a referee or the office; followed by the complainant through a private link; read and
decided by the referee or officer it was routed to, and by the office. Thin: the domain is
``zdb.complaints``. Filing without a token is limited per client address
(``rate_limit_complaints``, ``zdb.api.rate_limits``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.responses import JSONResponse

from zdb.api.openapi import problems
from zdb.auth.principal import Principal
from zdb.complaints.answers import followed_out, staff_out
from zdb.complaints.schemas import ComplaintFiled, ComplaintFollowed, ComplaintIn, ComplaintOut, DecisionIn
from zdb.complaints.service import decide, file_complaint, followed, seen_complaint, staff_complaints
from zdb.endpoints.dependencies import Caller, Paging, RequestSession
from zdb.endpoints.pagination import Page

__all__ = ["FOLLOW_PAGE", "router"]

router = APIRouter(prefix="/complaints", tags=["complaints"])

#: the complainant's private link: the page (the API answers the same under /api/v1)
FOLLOW_PAGE = "/complaints/follow/{secret}"

ComplaintId = Annotated[int, Path(ge=1, le=2**31 - 1, description="the complaint's number")]
Secret = Annotated[str, Path(min_length=16, max_length=64, description="the secret of the private link")]


def _staff(caller: Caller) -> Principal:
    caller.require("admin", "referee")
    return caller


Staff = Annotated[Principal, Depends(_staff)]


@router.post(
    "",
    status_code=201,
    response_model=ComplaintFiled,
    summary="File a complaint about an evaluation or a person's record",
    description="Without a token the complainant is a player: `pkz` (his person number) and `email` (to answer "
    "to, never shown publicly) are needed, and at most 5 complaints an hour are taken from one address. A club, "
    "referee or admin token files as the club, the referee, the office. A complaint about an evaluation is taken "
    "within the complaint period of the list edition that published it (`ZDB_COMPLAINT_DAYS` after its "
    "publication; before publication always); later only from the office (409 otherwise). The answer's `follow` "
    "is the complainant's private link, shown once.",
    responses=problems(409),
)
def file(*, request: Request, session: RequestSession, caller: Caller, body: ComplaintIn) -> Response:
    days = request.app.state.settings.complaint_days
    made, secret, period = file_complaint(session, body, caller, now=datetime.now(UTC), days=days)
    out = ComplaintFiled(
        id=made.id,
        state="new",
        routed_to=made.routed_to,  # type: ignore[arg-type]  # the table's check keeps it one of them
        follow=FOLLOW_PAGE.format(secret=secret),
        late=made.late,
        period_until=period.until,
    )
    return JSONResponse(out.model_dump(mode="json"), status_code=201, headers={"Cache-Control": "no-store"})


@router.get(
    "/follow/{secret}",
    response_model=ComplaintFollowed,
    summary="A complaint as its complainant follows it (the private link)",
    responses=problems(404),
)
def follow(*, session: RequestSession, secret: Secret) -> Response:
    out = followed_out(session, followed(session, secret))
    return JSONResponse(out.model_dump(mode="json"), headers={"Cache-Control": "no-store"})


@router.get(
    "",
    response_model=Page[ComplaintOut],
    summary="The complaints routed to the caller, open ones first (referee, admin)",
    responses=problems(401, 403),
)
def complaints(
    *,
    session: RequestSession,
    caller: Staff,
    paging: Paging,
    state: Annotated[Literal["new", "in_progress", "resolved", "dismissed"] | None, Query()] = None,
) -> Response:
    rows, total = staff_complaints(session, caller, state=state, limit=paging.limit, offset=paging.offset)
    page = paging.page([staff_out(session, r) for r in rows], total)
    return JSONResponse(page.model_dump(mode="json"), headers={"Cache-Control": "no-store"})


@router.get(
    "/{complaint_id}",
    response_model=ComplaintOut,
    summary="One complaint with its notes and the changes made for it (referee, admin)",
    responses=problems(401, 403, 404),
)
def complaint(*, session: RequestSession, caller: Staff, complaint_id: ComplaintId) -> Response:
    out = staff_out(session, seen_complaint(session, complaint_id, caller))
    return JSONResponse(out.model_dump(mode="json"), headers={"Cache-Control": "no-store"})


@router.post(
    "/{complaint_id}/decisions",
    response_model=ComplaintOut,
    summary="Set a complaint's state and/or write a note (referee, admin)",
    description="`revision` is the one read: when another decision was made meanwhile the answer is a 409 and "
    "nothing changes. States: `in_progress`, `resolved`, `dismissed` (a closed complaint is opened again by "
    "setting it `in_progress`).",
    responses=problems(401, 403, 404, 409),
)
def decision(*, session: RequestSession, caller: Staff, complaint_id: ComplaintId, body: DecisionIn) -> Response:
    found = decide(session, complaint_id, caller, body, now=datetime.now(UTC))
    return JSONResponse(staff_out(session, found).model_dump(mode="json"))
