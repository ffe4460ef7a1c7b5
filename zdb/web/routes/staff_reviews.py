"""The staff's page of a federation's review setup: its own review rule and the one that applies
(inherited from the nearest federation above that states it; whether trusted referees are
exempt), its rating officer and the one responsible for it; with the forms to set the rule and
to name or remove its officer. For a signed-in admin.

The forms are read into the API's bodies (``ReviewRuleIn``, ``OfficerIn``: the same checks) and
written through the writes the API makes (``zdb.reviews.office_writes``), each audited.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Form, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import ValidationError as SchemaError

from zdb.auth.officers import RatingOfficer
from zdb.endpoints.dependencies import INT32_MAX, RequestSession
from zdb.errors import NotFoundError, ValidationError, ValidationProblem
from zdb.federations.models import Federation
from zdb.messages import Message
from zdb.reviews import office_writes
from zdb.reviews.models import ReviewSetting
from zdb.reviews.rules import effective_review, responsible_officer
from zdb.reviews.schemas import OfficerIn, ReviewRuleIn
from zdb.web.i18n import mark
from zdb.web.referee_session import require_same_origin
from zdb.web.rendering import render
from zdb.web.routes.referee_fees import schema_problems
from zdb.web.routes.router import page_router
from zdb.web.routes.staff_forms import admin, back_to, number

__all__ = ["router"]

router = page_router()

Prefix = Annotated[str, Path(max_length=4)]
Choice = Annotated[str, Form(max_length=10)]
Field = Annotated[str, Form(max_length=300)]
DONE = {
    "rule": mark("Saved: the review rule."),
    "officer": mark("Saved: the rating officer."),
    "removed": mark("Saved: the federation has no officer of its own now."),
}
#: the rule's form: an empty choice leaves the part to the federation above
_REVIEW = {"": None, "off": "off", "required": "required"}
_EXEMPT = {"": None, "yes": True, "no": False}


def _path(prefix: str) -> str:
    # the national federation's prefix is empty: its page is /staff/federations/-/review
    return f"/staff/federations/{prefix or '-'}/review"


def _federation(session: RequestSession, prefix: str) -> Federation:
    found = session.get(Federation, "" if prefix == "-" else prefix)
    if found is None:
        raise NotFoundError(Message("no federation has the prefix {prefix!r}", prefix=prefix))
    return found


@router.get("/staff/federations/{prefix}/review", response_class=HTMLResponse)
def review_page(
    request: Request,
    session: RequestSession,
    prefix: Prefix,
    done: Annotated[Literal["rule", "officer", "removed"] | None, Query()] = None,
) -> HTMLResponse:
    admin(request, session)
    federation = _federation(session, prefix)
    own_rule = session.get(ReviewSetting, federation.prefix)
    responsible, officer = responsible_officer(session, federation.prefix)
    context: dict[str, Any] = {
        "federation": federation,
        "path": _path(federation.prefix),
        "own_rule": own_rule,
        "rule": effective_review(session, federation.prefix),
        "own_officer": session.get(RatingOfficer, federation.prefix),
        "officer": officer,
        "responsible": session.get(Federation, responsible) if officer is not None else None,
        "done": None if done is None else DONE[done],
    }
    return render(request, "staff_review_setup.html", context)


@router.post("/staff/federations/{prefix}/review")
def set_rule(
    request: Request, session: RequestSession, prefix: Prefix, *, review: Choice = "", trusted_exempt: Choice = ""
) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    federation = _federation(session, prefix)
    problems = [
        ValidationProblem(f"form.{field}", Message("{text!r} is not one of the choices", text=text))
        for field, text, choices in (("review", review, _REVIEW), ("trusted_exempt", trusted_exempt, _EXEMPT))
        if text not in choices
    ]
    if problems:
        raise ValidationError(problems)
    body = ReviewRuleIn(review=_REVIEW[review], trusted_exempt=_EXEMPT[trusted_exempt])  # type: ignore[arg-type]
    office_writes.change_review_rule(session, caller, federation.prefix, body)
    return back_to(_path(federation.prefix), "rule")


@router.post("/staff/federations/{prefix}/officer")
def set_officer(
    request: Request,
    session: RequestSession,
    prefix: Prefix,
    *,
    name: Field = "",
    email: Field = "",
    token_id: Field = "",
) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    federation = _federation(session, prefix)
    token = number("token_id", token_id, low=1, high=INT32_MAX)
    try:
        body = OfficerIn(name=name.strip(), email=email.strip(), token_id=token)
    except SchemaError as error:
        raise schema_problems(error, "form") from None
    office_writes.name_officer(session, caller, federation.prefix, body)
    return back_to(_path(federation.prefix), "officer")


@router.post("/staff/federations/{prefix}/officer/removal")
def remove_officer(request: Request, session: RequestSession, prefix: Prefix) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    federation = _federation(session, prefix)
    office_writes.unname_officer(session, caller, federation.prefix)
    return back_to(_path(federation.prefix), "removed")
