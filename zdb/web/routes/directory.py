"""The public directory: who is responsible for each federation's and club's evaluations (a
name, never an address), and the contact form that reaches him (``zdb.reviews.directory``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Form, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import ValidationError as SchemaError
from starlette.responses import Response

from zdb.endpoints.dependencies import RequestSession, mark_refused
from zdb.errors import ValidationError, ValidationProblem
from zdb.messages import Message
from zdb.reviews.directory import TooManyMessagesError, club_entry, directory, send_message
from zdb.reviews.schemas import ContactIn
from zdb.web.referee_session import require_same_origin
from zdb.web.rendering import render, translate_message
from zdb.web.routes.router import page_router

__all__ = ["router"]

router = page_router()

Line = Annotated[str, Form(max_length=300)]


@router.get("/directory", response_class=HTMLResponse)
def directory_page(
    request: Request, session: RequestSession, club: Annotated[str, Query(max_length=5)] = ""
) -> HTMLResponse:
    entry = club_entry(session, club.strip()) if club.strip() else None
    return render(request, "directory.html", {"entries": directory(session).federations, "club": entry})


#: what the contact form's fields need, said without the field's technical name
_NEEDS = {
    "name": Message("Your name is needed."),
    "email": Message("An e-mail address is needed, for the answer."),
    "subject": Message("A subject is needed."),
    "text": Message("A text is needed (plain text, at most 4000 characters)."),
}


def _schema_problems(error: SchemaError) -> list[ValidationProblem]:
    fields = {str(item["loc"][-1]) for item in error.errors() if item["loc"]}
    return [ValidationProblem("", _NEEDS.get(field, Message("The form is not complete."))) for field in sorted(fields)]


@router.post("/directory/message", response_class=HTMLResponse)
def contact(
    request: Request,
    session: RequestSession,
    *,
    name: Line = "",
    email: Line = "",
    subject: Line = "",
    text: Annotated[str, Form(max_length=4000)] = "",
    federation: Annotated[str, Form(max_length=4)] = "",
    club: Annotated[str, Form(max_length=5)] = "",
) -> Response:
    require_same_origin(request)
    try:
        body = ContactIn(
            name=name,
            email=email,
            subject=subject,
            text=text,
            federation=federation if not club.strip() else None,
            club=club.strip() or None,
        )
    except SchemaError as error:
        raise ValidationError(_schema_problems(error)) from None
    address = request.client.host if request.client else "unknown"
    try:
        _, entry = send_message(session, body, address=address)
    except TooManyMessagesError as error:
        mark_refused(request)
        context = {"title": translate_message(request, Message("Too many messages")), "status": 429}
        context["details"] = [translate_message(request, error.text)]
        return render(request, "error.html", context, status=429, headers={"Retry-After": str(error.retry_after)})
    return render(request, "directory_sent.html", {"entry": entry})
