"""Review by the responsible rating officer: the waiting submissions with their preview and
impact, the decisions, the federations' review rules, the officers and trusted referees; and the
public directory with its contact form.

Thin: the domain is ``zdb.reviews``. A submission that waits in review is answered by the
submission endpoints themselves (202 naming the review).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from fastapi import APIRouter, Body, Depends, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session

from zdb.api.conditional import conditional_json
from zdb.api.openapi import problems
from zdb.audit.writer import record_entry
from zdb.auth.principal import Principal
from zdb.endpoints.dependencies import INT32_MAX, Caller, Paging, RequestSession
from zdb.endpoints.pagination import Page
from zdb.federations.settings import require_federation
from zdb.reviews import directory as people
from zdb.reviews import office_writes, queries
from zdb.reviews import service as reviews
from zdb.reviews.models import Review, ReviewSetting
from zdb.reviews.rules import effective_review, set_trusted
from zdb.reviews.schemas import (
    ContactIn,
    ContactOut,
    DecisionIn,
    DirectoryEntryOut,
    DirectoryOut,
    OfficerIn,
    OfficerMessageOut,
    ReviewDetailOut,
    ReviewOut,
    ReviewRuleIn,
    ReviewRuleOut,
)
from zdb.submissions.store import writer_name

__all__ = ["router"]

router = APIRouter(tags=["reviews"])

ReviewId = Annotated[int, Path(ge=1, le=INT32_MAX, description="the review's id")]
Prefix = Annotated[str, Path(max_length=4, description="the federation's club-code prefix", examples=["1"])]
ClubCode = Annotated[str, Path(min_length=5, max_length=5, description="the club's code", examples=["10101"])]
TokenId = Annotated[int, Path(ge=1, le=INT32_MAX, description="the token's id (`zdb token list`)")]


def _staff(caller: Caller) -> Principal:
    caller.require("admin", "referee")
    return caller


def _admin(caller: Caller) -> Principal:
    caller.require("admin")
    return caller


Staff = Annotated[Principal, Depends(_staff)]
Admin = Annotated[Principal, Depends(_admin)]


@router.get(
    "/reviews",
    response_model=Page[ReviewOut],
    summary="The reviews the caller may see: an officer's federations', a referee's scope's (referee, admin)",
    description="The waiting first, the oldest of them first. A referee sees his submissions' state and the "
    "officer's reason.",
    responses=problems(401, 403),
)
def review_list(
    *,
    request: Request,
    session: RequestSession,
    caller: Staff,
    paging: Paging,
    state: Annotated[Literal["waiting", "approved", "rejected"] | None, Query()] = None,
) -> Response:
    items, total = queries.visible_reviews(session, caller, state=state, limit=paging.limit, offset=paging.offset)
    return conditional_json(request, paging.page(items, total))


@router.get(
    "/reviews/{review_id}",
    name="review",
    response_model=ReviewDetailOut,
    summary="One review with the evaluation its submission would get now and what its approval would move",
    responses=problems(401, 403, 404),
)
def review(*, request: Request, session: RequestSession, caller: Staff, review_id: ReviewId) -> Response:
    return conditional_json(request, queries.review_detail(session, reviews.visible_review(session, caller, review_id)))


@router.post(
    "/reviews/{review_id}/approve",
    response_model=ReviewOut,
    summary="Approve a waiting submission: it is stored and evaluated (the responsible officer, admin)",
    description="The tournament (or the corrected tournament's new version) is stored as a submission without "
    "review is, and the time line is marked dirty at its place; the recalculation follows. Two officers deciding "
    "at once: one wins, the other gets a 409.",
    responses=problems(401, 403, 404, 409),
)
def approve(
    *,
    session: RequestSession,
    caller: Staff,
    review_id: ReviewId,
    body: Annotated[DecisionIn | None, Body()] = None,
) -> ReviewOut:
    return _decided(session, caller, review_id, reviews.approve, note=None if body is None else body.reason)


@router.post(
    "/reviews/{review_id}/reject",
    response_model=ReviewOut,
    summary="Reject a waiting submission with a reason the referee reads (the responsible officer, admin)",
    responses=problems(401, 403, 404, 409),
)
def reject(*, session: RequestSession, caller: Staff, review_id: ReviewId, body: DecisionIn) -> ReviewOut:
    return _decided(session, caller, review_id, reviews.reject, reason=body.reason)


def _decided(
    session: Session, caller: Principal, review_id: int, decide: Callable[..., Review], **reason: str | None
) -> ReviewOut:
    """The review decided by the caller (named its writer), answered as it now stands."""
    return queries.review_out(session, decide(session, caller, review_id, by=writer_name(caller), **reason))


def _rule_out(session: RequestSession, prefix: str) -> ReviewRuleOut:
    require_federation(session, prefix)
    own = session.get(ReviewSetting, prefix)
    rule = effective_review(session, prefix)
    return ReviewRuleOut(
        prefix=prefix,
        own=ReviewRuleIn(
            review=None if own is None else own.review,  # type: ignore[arg-type]
            trusted_exempt=None if own is None else own.trusted_exempt,
        ),
        review=rule.review,  # type: ignore[arg-type]  # the table's check keeps it a rule
        review_from=rule.review_from,
        trusted_exempt=rule.trusted_exempt,
        trusted_exempt_from=rule.trusted_exempt_from,
    )


@router.get(
    "/federations/{prefix}/review",
    response_model=ReviewRuleOut,
    tags=["federations and clubs"],
    summary="A federation's review rule: its own, and the one that applies (inherited from the nearest ancestor)",
    responses=problems(404),
)
def review_rule(*, request: Request, session: RequestSession, prefix: Prefix) -> Response:
    return conditional_json(request, _rule_out(session, prefix))


@router.put(
    "/federations/{prefix}/review",
    response_model=ReviewRuleOut,
    tags=["office"],
    summary="Set a federation's own review rule; null inherits the parent's (admin)",
    responses=problems(401, 403, 404),
)
def put_review_rule(*, session: RequestSession, caller: Admin, prefix: Prefix, body: ReviewRuleIn) -> ReviewRuleOut:
    office_writes.change_review_rule(session, caller, prefix, body)
    return _rule_out(session, prefix)


@router.put(
    "/federations/{prefix}/officer",
    response_model=DirectoryEntryOut,
    tags=["office"],
    summary="Name a federation's rating officer (admin)",
    description="The name is shown in the public directory; the address only receives the contact form's "
    "messages and is never shown. The token (a referee's whose scope covers the federation) decides reviews.",
    responses=problems(401, 403, 404),
)
def put_officer(*, session: RequestSession, caller: Admin, prefix: Prefix, body: OfficerIn) -> DirectoryEntryOut:
    office_writes.name_officer(session, caller, prefix, body)
    return people.federation_entry(session, prefix)


@router.delete(
    "/federations/{prefix}/officer",
    status_code=204,
    response_class=Response,
    tags=["office"],
    summary="Remove a federation's own rating officer; the one above becomes responsible (admin)",
    responses=problems(401, 403, 404),
)
def delete_officer(*, session: RequestSession, caller: Admin, prefix: Prefix) -> Response:
    office_writes.unname_officer(session, caller, prefix)
    return Response(status_code=204)


@router.put(
    "/tokens/{token_id}/trusted",
    status_code=204,
    response_class=Response,
    tags=["office"],
    summary="Trust a referee: where his federation exempts trusted referees, his submissions skip review (admin)",
    responses=problems(401, 403, 422),
)
def trust(*, session: RequestSession, caller: Admin, token_id: TokenId) -> Response:
    return _trusted(session, caller, token_id, trusted=True)


@router.delete(
    "/tokens/{token_id}/trusted",
    status_code=204,
    response_class=Response,
    tags=["office"],
    summary="No longer trust a referee (admin)",
    responses=problems(401, 403, 422),
)
def distrust(*, session: RequestSession, caller: Admin, token_id: TokenId) -> Response:
    return _trusted(session, caller, token_id, trusted=False)


def _trusted(session: Session, caller: Principal, token_id: int, *, trusted: bool) -> Response:
    """A referee's trust set; audited only when it changed."""
    if set_trusted(session, token_id, trusted=trusted, by=writer_name(caller)):
        record_entry(session, caller.token_id, "token.trust", f"token {token_id}", trusted=trusted)
    return Response(status_code=204)


@router.get(
    "/directory",
    response_model=DirectoryOut,
    summary="Who is responsible for each federation: the officer's name, never an address",
)
def directory(*, request: Request, session: RequestSession) -> Response:
    return conditional_json(request, people.directory(session))


@router.get(
    "/directory/clubs/{code}",
    response_model=DirectoryEntryOut,
    summary="Who is responsible for a club's evaluations: its district's officer, else its region's, else the office",
    responses=problems(404),
)
def club_directory(*, request: Request, session: RequestSession, code: ClubCode) -> Response:
    return conditional_json(request, people.club_entry(session, code))


@router.post(
    "/directory/messages",
    status_code=202,
    response_model=ContactOut,
    summary="Write to the officer responsible for a club or federation (public; at most 5 an hour per address)",
    description="The message is kept and shown to the officer, who answers to the given address; the officer's "
    "address is never shown.",
    responses=problems(404, 422),
)
def contact(*, request: Request, session: RequestSession, body: ContactIn) -> JSONResponse:
    address = request.client.host if request.client else "unknown"
    stored, entry = people.send_message(session, body, address=address)
    out = ContactOut(id=stored.id, to=entry.officer, prefix=stored.prefix)
    return JSONResponse(out.model_dump(mode="json"), status_code=202)


@router.get(
    "/officer/messages",
    response_model=Page[OfficerMessageOut],
    summary="The contact form's messages for the caller's federations (an officer, admin)",
    responses=problems(401, 403),
)
def messages(*, request: Request, session: RequestSession, caller: Staff, paging: Paging) -> Response:
    items, total = people.officer_messages(session, caller, limit=paging.limit, offset=paging.offset)
    return conditional_json(request, paging.page(items, total))
