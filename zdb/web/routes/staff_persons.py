"""The staff's person page: correct a person's record (name, birth year, sex, FIDE id, nation)
and merge a second record of the same person into it. For a signed-in admin (the referees'
sign-in, with an admin token).

The page writes through the services the API uses (``zdb.office``): each change audited, the
recalculation asked for after the commit when a birth year reaches into the time line.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from zdb.auth.principal import Principal
from zdb.endpoints.dependencies import PersonNumber, RequestSession
from zdb.errors import ValidationError, ValidationProblem
from zdb.office.merge import merge_persons
from zdb.office.persons import edit_person, person_values, player_for_change
from zdb.web.referee_session import referee, require_same_origin
from zdb.web.rendering import render
from zdb.web.routes.router import page_router

__all__ = ["router"]

router = page_router()

Text = Annotated[str, Form(max_length=100)]


def _admin(request: Request, session: RequestSession) -> Principal:
    caller = referee(request, session)
    caller.require("admin")
    return caller


def _number(field: str, text: str) -> int | None:
    """An empty field clears the value; anything but digits is refused naming the field."""
    if not text.strip():
        return None
    if not text.strip().isdigit():
        raise ValidationError([ValidationProblem(f"form.{field}", "is a whole number")])
    return int(text.strip())


@router.get("/staff/players/{pkz}", response_class=HTMLResponse)
def person_page(
    request: Request,
    session: RequestSession,
    pkz: PersonNumber,
    done: Annotated[Literal["saved", "merged"] | None, Query()] = None,
) -> HTMLResponse:
    _admin(request, session)
    values = person_values(player_for_change(session, pkz))
    return render(request, "staff_person.html", {"pkz": pkz, "values": values, "done": done})


@router.post("/staff/players/{pkz}")
def save_person(
    request: Request,
    session: RequestSession,
    pkz: PersonNumber,
    *,
    surname: Text,
    given_name: Text = "",
    birth_year: Text = "",
    sex: Text = "",
    fide_id: Text = "",
    nation: Text = "",
) -> RedirectResponse:
    require_same_origin(request)
    caller = _admin(request, session)
    given: dict[str, Any] = {
        "surname": surname.strip(),
        "given_name": given_name.strip(),
        "birth_year": _number("birth_year", birth_year),
        # an empty choice keeps the sex on record unknown, as the rating list leaves it
        "sex": sex or None,
        "fide_id": _number("fide_id", fide_id),
        "nation": nation.strip().upper() or None,
    }
    edit_person(session, caller, pkz, given)
    return RedirectResponse(f"/staff/players/{pkz}?done=saved", status_code=303)


@router.post("/staff/players/{pkz}/merge")
def merge(request: Request, session: RequestSession, pkz: PersonNumber, *, absorb: Text) -> RedirectResponse:
    require_same_origin(request)
    caller = _admin(request, session)
    absorbed = _number("absorb", absorb)
    if absorbed is None:
        raise ValidationError([ValidationProblem("form.absorb", "names the person number to merge into this one")])
    merge_persons(session, caller, pkz, absorbed)
    return RedirectResponse(f"/staff/players/{pkz}?done=merged", status_code=303)
