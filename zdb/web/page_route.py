"""The route class of every page: a user error becomes a page that says what is wrong (never a
problem document, never a 500), and each answer carries its server time (``Server-Timing``).

The API's handlers answer errors as JSON problem documents for the whole application; a page
catches its errors before they reach them, here. The request's unit of work then sees no error,
so the refusal is marked on the request: its session rolls back what a service flushed before
it refused (a transfer's ended membership, when joining the new club is refused).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine
from typing import Any
from urllib.parse import urlencode

from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from zdb.auth.errors import AuthenticationError, PermissionDeniedError
from zdb.endpoints.dependencies import mark_refused
from zdb.errors import ConflictError, DomainError, NotFoundError, ValidationError, ValidationProblem
from zdb.messages import Message
from zdb.rating import InvalidInputError
from zdb.web.i18n import mark
from zdb.web.rendering import render, translate, translate_message

__all__ = ["PageRoute", "error_page", "problem_detail"]

_TITLES = {
    400: mark("The request cannot be answered"),
    403: mark("Not allowed"),
    404: mark("Not found"),
    409: mark("Not possible now"),
    422: mark("The input is not valid"),
}

#: the words for the fields a staff form or its service names in a problem (``body.club_code``,
#: ``form.birth_year``): the form's own labels, so that the reader finds the field
_FIELDS = {
    "absorb": mark("Person number to merge into this one"),
    "announcement": mark("Announcement code"),
    "birth_year": mark("Birth year"),
    "club_code": mark("Club code"),
    "code": mark("Club code"),
    "confirm_duplicate": mark("Store anyway"),
    "date": mark("Date"),
    "federation_prefix": mark("Federation (prefix)"),
    "fide_id": mark("FIDE id"),
    "from_club": mark("From club"),
    "given_name": mark("Given name"),
    "list_date": mark("Date of the list"),
    "member_no": mark("Member number"),
    "name": mark("Name"),
    "nation": mark("Nation (FIDE code)"),
    "parent_prefix": mark("Parent federation (prefix)"),
    "prefix": mark("Prefix"),
    "sex": mark("Sex"),
    "status": mark("Status"),
    "surname": mark("Surname"),
    "to_club": mark("To club (code)"),
    "tournament": mark("Tournament"),
    "valid_from": mark("First day"),
    "valid_until": mark("Last day"),
}


def error_page(request: Request, status: int, details: list[str]) -> Response:
    title = translate(request, _TITLES.get(status, _TITLES[400]))
    return render(request, "error.html", {"title": title, "details": details, "status": status}, status=status)


def _validation_details(request: Request, error: RequestValidationError) -> list[str]:
    """A form the request could not be read from: each field by its label, and what a page's form
    can get wrong in the page's language (anything else as the reader says it)."""
    details = []
    for item in error.errors():
        place = ".".join(str(part) for part in item.get("loc", ()))
        kind, context = item.get("type"), item.get("ctx") or {}
        text: str | Message = str(item.get("msg", ""))
        if kind == "missing":
            text = Message("a value is needed")
        elif kind == "string_too_long" and "max_length" in context:
            text = Message("is longer than {length} characters", length=context["max_length"])
        elif kind == "literal_error":
            text = Message("is not one of the choices")
        details.append(problem_detail(request, ValidationProblem(place, text)))
    return details


def problem_detail(request: Request, problem: ValidationProblem) -> str:
    """A problem as a page shows it: its place (a field by its label) and its text, both in the
    request's language; a problem without a place is its text."""
    text = translate_message(request, problem.text)
    place = problem.place
    if not place:
        return text
    field = place.removeprefix("body.").removeprefix("form.")
    if place.startswith("line ") and place[5:].isdigit():
        place = translate(request, "line %(number)s") % {"number": place[5:]}
    elif field in _FIELDS:
        place = translate(request, _FIELDS[field])
    else:
        place = translate(request, place)
    return f"{place}: {text}"


def _sign_in_again(request: Request) -> Response:
    """A referee page without a valid sign-in: back to the sign-in form, which says why."""
    query = urlencode({"next": request.url.path, "expired": "1"})
    return RedirectResponse(f"/referee/sign-in?{query}", status_code=303)


def _answer_error(request: Request, error: Exception) -> Response:
    if isinstance(error, RequestValidationError):
        return error_page(request, 422, _validation_details(request, error))
    if isinstance(error, AuthenticationError):
        return _sign_in_again(request)
    if isinstance(error, ValidationError):
        return error_page(request, 422, [problem_detail(request, problem) for problem in error.problems])
    if isinstance(error, InvalidInputError):
        return error_page(request, 422, [str(error)])
    status = 400
    if isinstance(error, PermissionDeniedError):
        status = 403
    elif isinstance(error, NotFoundError):
        status = 404
    elif isinstance(error, ConflictError):
        status = 409
    text = error.text if isinstance(error, DomainError) else str(error)
    return error_page(request, status, [translate_message(request, text)])


class PageRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def page(request: Request) -> Response:
            started = time.perf_counter()
            try:
                response = await handler(request)
            except (RequestValidationError, DomainError, InvalidInputError) as error:
                mark_refused(request)
                response = _answer_error(request, error)
            elapsed = (time.perf_counter() - started) * 1000
            response.headers["Server-Timing"] = f"app;dur={elapsed:.1f}"
            return response

        return page
