"""The officers' and referees' review pages: the reviews the signed-in token may see (an
officer's federations', a referee's own scope's) with their state and the officer's reason; one
review with the evaluation it would get and what its approval would move, and, for the
responsible officer, approve and reject; the contact form's messages for the officer.

The decisions run in the request's unit of work, as the referee's writes do: a refused one is
rolled back whole, a stored one committed once before the answer (the recalculation it asks for
through the outbox follows the commit).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Form, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from starlette.responses import Response

from zdb.endpoints.dependencies import INT32_MAX, RequestSession
from zdb.reviews import queries
from zdb.reviews import service as reviews
from zdb.reviews.directory import officer_messages
from zdb.reviews.rules import officer_prefixes
from zdb.submissions.store import writer_name
from zdb.web.referee_session import referee, require_same_origin
from zdb.web.rendering import render
from zdb.web.routes.router import page_router

__all__ = ["router"]

router = page_router()

SHOWN = 100
ReviewId = Annotated[int, Path(ge=1, le=INT32_MAX)]
Reason = Annotated[str, Form(max_length=1000)]


@router.get("/referee/reviews", response_class=HTMLResponse)
def review_list(
    request: Request,
    session: RequestSession,
    state: Annotated[str, Query(pattern="^(|waiting|approved|rejected)$")] = "",
) -> HTMLResponse:
    caller = referee(request, session)
    items, total = queries.visible_reviews(session, caller, state=state or None, limit=SHOWN, offset=0)
    officer = caller.role == "admin" or bool(officer_prefixes(session, caller))
    messages, _ = officer_messages(session, caller, limit=SHOWN, offset=0) if officer else ([], 0)
    return render(
        request,
        "referee_reviews.html",
        {"caller": caller, "items": items, "total": total, "state": state, "messages": messages, "officer": officer},
    )


@router.get("/referee/reviews/{review_id}", response_class=HTMLResponse)
def review_page(request: Request, session: RequestSession, review_id: ReviewId) -> HTMLResponse:
    caller = referee(request, session)
    found = reviews.visible_review(session, caller, review_id)
    detail = queries.review_detail(session, found)
    decides = found.state == "waiting" and reviews.may_decide(session, caller, found)
    return render(request, "referee_review.html", {"caller": caller, "review": detail, "decides": decides})


@router.post("/referee/reviews/{review_id}/approve")
def approve(request: Request, session: RequestSession, review_id: ReviewId, reason: Reason = "") -> Response:
    require_same_origin(request)
    caller = referee(request, session)
    reviews.approve(session, caller, review_id, by=writer_name(caller), note=reason or None)
    return RedirectResponse(f"/referee/reviews/{review_id}", status_code=303)


@router.post("/referee/reviews/{review_id}/reject")
def reject(request: Request, session: RequestSession, review_id: ReviewId, reason: Reason = "") -> Response:
    require_same_origin(request)
    caller = referee(request, session)
    reviews.reject(session, caller, review_id, by=writer_name(caller), reason=reason)
    return RedirectResponse(f"/referee/reviews/{review_id}", status_code=303)
