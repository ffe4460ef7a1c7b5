"""The staff's person page: correct a person's record (name, birth year, sex, FIDE id, nation)
and merge a second record of the same person into it; the records that may be that second one
(a near or the same name and the same birth, ``zdb.players.similar``) are named above the
forms. For a signed-in admin (the referees' sign-in, with an admin token).

The page writes through the services the API uses (``zdb.office``): each change audited, the
recalculation asked for after the commit when a birth year reaches into the time line.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from fastapi import Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from zdb.endpoints.dependencies import INT32_MAX, PersonNumber, RequestSession
from zdb.errors import ValidationError, ValidationProblem
from zdb.messages import Message
from zdb.office.merge import merge_persons
from zdb.office.persons import edit_person, person_values, player_for_change, similar_warnings
from zdb.office.reach import recalculation_from
from zdb.web.i18n import mark
from zdb.web.referee_session import require_same_origin
from zdb.web.rendering import render
from zdb.web.routes.router import page_router
from zdb.web.routes.staff_forms import Text, admin, back_to, moved_record, number, recalculation_hint

__all__ = ["router"]

router = page_router()

DONE = {"saved": mark("The record is saved."), "merged": mark("The records are merged.")}


@router.get("/staff/players/{pkz}", response_class=HTMLResponse)
def person_page(
    request: Request,
    session: RequestSession,
    pkz: PersonNumber,
    *,
    done: Annotated[Literal["saved", "merged"] | None, Query()] = None,
    redo_from: Annotated[date | None, Query()] = None,
    redo_tournament: Annotated[int | None, Query(ge=1, le=INT32_MAX)] = None,
) -> Response:
    caller = admin(request, session)
    moved = moved_record(request, session, pkz)
    if moved is not None:
        return moved
    values = person_values(player_for_change(session, pkz))
    # A second record of the person is shown wherever the office works on one (issue 31).
    similar = similar_warnings(session, caller, pkz, values)
    return render(
        request,
        "staff_person.html",
        {
            "pkz": pkz,
            "values": values,
            "similar": similar,
            "done": None if done is None else DONE[done],
            "redo_from": redo_from,
            "redo_tournament": redo_tournament,
        },
    )


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
    caller = admin(request, session)
    given: dict[str, Any] = {
        "surname": surname.strip(),
        "given_name": given_name.strip(),
        "birth_year": number("birth_year", birth_year, low=1850, high=2200),
        # an empty choice keeps the sex on record unknown, as the rating list leaves it
        "sex": sex or None,
        "fide_id": number("fide_id", fide_id, low=1),
        "nation": nation.strip().upper() or None,
    }
    edit = edit_person(session, caller, pkz, given)
    return back_to(f"/staff/players/{pkz}", "saved", **recalculation_hint(recalculation_from(edit.reach)))


@router.post("/staff/players/{pkz}/merge")
def merge(request: Request, session: RequestSession, pkz: PersonNumber, *, absorb: Text) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    absorbed = number("absorb", absorb, low=1)
    if absorbed is None:
        raise ValidationError(
            [ValidationProblem("form.absorb", Message("names the person number to merge into this one"))]
        )
    merged = merge_persons(session, caller, pkz, absorbed)
    return back_to(f"/staff/players/{pkz}", "merged", **recalculation_hint(recalculation_from(merged.reach)))
