"""The complaint pages: the form on which a player files a complaint (his person number and an
e-mail address to answer to), the page he follows it on (his private link: state, notes, the
changes made for it; never the e-mail address), and the officer's and office's pages: the
complaints routed to the signed-in referee or officer (the office sees all) and one complaint
with its decision form.

The pages write through the services the API uses (``zdb.complaints.service``); a decision
sends the revision it was read at, so that of two officers deciding at once the later is told
(the 409 page). Filing from the form is limited per address as the API's
(``zdb.api.rate_limits``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

import pydantic
from fastapi import Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from zdb.auth.principal import PUBLIC
from zdb.complaints.answers import followed_out, staff_out
from zdb.complaints.schemas import MAX_TEXT, ComplaintIn, DecisionIn
from zdb.complaints.service import decide, file_complaint, followed, seen_complaint, staff_complaints
from zdb.endpoints.dependencies import INT32_MAX, RequestSession
from zdb.errors import ValidationError, ValidationProblem
from zdb.messages import Message
from zdb.web.i18n import mark
from zdb.web.referee_session import referee, require_same_origin
from zdb.web.rendering import render
from zdb.web.routes.router import page_router
from zdb.web.routes.staff_forms import back_to, number

__all__ = ["router"]

router = page_router()

#: the staff's list shows at most this many complaints
SHOWN = 500
DONE = {
    "filed": mark("Your complaint is filed. Keep the address of this page: it is your private link."),
    "saved": mark("The decision is saved."),
}

Field = Annotated[str, Form(max_length=20)]
LongText = Annotated[str, Form(max_length=MAX_TEXT + 100)]


def _model(kind: type[pydantic.BaseModel], values: dict[str, Any]) -> Any:
    """A form's values as the API's body, each wrong field refused naming it."""
    try:
        return kind.model_validate(values)
    except pydantic.ValidationError as error:
        raise ValidationError(
            [
                ValidationProblem(
                    "form." + ".".join(str(p) for p in e["loc"]), Message("is not valid: {why}", why=e["msg"])
                )
                for e in error.errors()
            ]
        ) from None


@router.get("/complaints/new", response_class=HTMLResponse)
def complaint_form(
    request: Request,
    tournament: Annotated[int | None, Query(ge=1, le=INT32_MAX)] = None,
    person: Annotated[int | None, Query(ge=1)] = None,
) -> HTMLResponse:
    return render(request, "complaint_new.html", {"tournament": tournament, "person": person, "max_text": MAX_TEXT})


@router.post("/complaints/new")
def file_from_form(
    request: Request,
    session: RequestSession,
    *,
    subject: Annotated[Literal["evaluation", "record"], Form()],
    pkz: Field,
    email: Annotated[str, Form(max_length=254)],
    text: LongText,
    tournament: Field = "",
    person: Field = "",
) -> RedirectResponse:
    require_same_origin(request)
    body = _model(
        ComplaintIn,
        {
            "subject": subject,
            "tournament": number("tournament", tournament, low=1, high=INT32_MAX),
            "person": number("person", person, low=1),
            "pkz": number("pkz", pkz, low=1),
            "email": email.strip() or None,
            "text": text,
        },
    )
    days = request.app.state.settings.complaint_days
    _, secret, _ = file_complaint(session, body, PUBLIC, now=datetime.now(UTC), days=days)
    return back_to(f"/complaints/follow/{secret}", "filed")


@router.get("/complaints/follow/{secret}", response_class=HTMLResponse)
def follow_page(
    request: Request,
    session: RequestSession,
    secret: str,
    done: Annotated[Literal["filed"] | None, Query()] = None,
) -> HTMLResponse:
    complaint = followed_out(session, followed(session, secret))
    context = {"c": complaint, "done": None if done is None else DONE[done]}
    return render(request, "complaint_follow.html", context, headers={"Cache-Control": "no-store"})


@router.get("/staff/complaints", response_class=HTMLResponse)
def staff_list(
    request: Request,
    session: RequestSession,
    state: Annotated[Literal["new", "in_progress", "resolved", "dismissed"] | None, Query()] = None,
) -> HTMLResponse:
    caller = referee(request, session)
    rows, total = staff_complaints(session, caller, state=state, limit=SHOWN, offset=0)
    items = [staff_out(session, r) for r in rows]
    return render(request, "staff_complaints.html", {"items": items, "total": total, "state": state or ""})


@router.get("/staff/complaints/{complaint_id}", response_class=HTMLResponse)
def staff_one(
    request: Request,
    session: RequestSession,
    complaint_id: int,
    done: Annotated[Literal["saved"] | None, Query()] = None,
) -> HTMLResponse:
    caller = referee(request, session)
    complaint = staff_out(session, seen_complaint(session, complaint_id, caller))
    context = {"c": complaint, "done": None if done is None else DONE[done]}
    return render(request, "staff_complaint.html", context, headers={"Cache-Control": "no-store"})


@router.post("/staff/complaints/{complaint_id}")
def decide_from_form(
    request: Request,
    session: RequestSession,
    complaint_id: int,
    *,
    revision: Field,
    state: Field = "",
    note: LongText = "",
) -> RedirectResponse:
    require_same_origin(request)
    caller = referee(request, session)
    body = _model(
        DecisionIn,
        {
            "revision": number("revision", revision, low=0, high=INT32_MAX),
            "state": state or None,
            "note": note.strip() or None,
        },
    )
    decide(session, complaint_id, caller, body, now=datetime.now(UTC))
    return back_to(f"/staff/complaints/{complaint_id}", "saved")
