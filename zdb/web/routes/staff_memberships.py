"""The staff's membership page of a person: his memberships, and the forms to join a club, to
change or end a membership, and to transfer him to another club. For a signed-in admin.

The page writes through the services the API uses (``zdb.office.memberships``): each change
audited; a guest who joins is a member from that day on, and the page says from which
tournament the recalculation redoes his evaluations.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from fastapi import Form, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy import select

from zdb.endpoints.dependencies import INT32_MAX, PersonNumber, RequestSession
from zdb.federations.models import Club
from zdb.office.memberships import edit_membership, join, memberships_of, transfer
from zdb.office.persons import person_values, player_for_change
from zdb.office.reach import recalculation_from
from zdb.web.i18n import mark
from zdb.web.referee_session import require_same_origin
from zdb.web.rendering import render
from zdb.web.routes.router import page_router
from zdb.web.routes.staff_forms import (
    CLUB_CODE,
    Status,
    Text,
    admin,
    back_to,
    checked_key,
    day,
    moved_record,
    number,
    optional_day,
    recalculation_hint,
)

__all__ = ["router"]

router = page_router()

MembershipId = Annotated[int, Path(ge=1, le=INT32_MAX)]
DONE = {
    "joined": mark("Saved: the person joined the club."),
    "saved": mark("Saved."),
    "transferred": mark("Saved: the transfer is recorded."),
}


def _page(pkz: int) -> str:
    return f"/staff/players/{pkz}/memberships"


@router.get("/staff/players/{pkz}/memberships", response_class=HTMLResponse)
def memberships_page(
    request: Request,
    session: RequestSession,
    pkz: PersonNumber,
    *,
    done: Annotated[Literal["joined", "saved", "transferred"] | None, Query()] = None,
    redo_from: Annotated[date | None, Query()] = None,
    redo_tournament: Annotated[int | None, Query(ge=1, le=INT32_MAX)] = None,
) -> Response:
    admin(request, session)
    moved = moved_record(request, session, pkz)
    if moved is not None:
        return moved
    values = person_values(player_for_change(session, pkz))
    found = memberships_of(session, pkz)
    codes = {m.club_code for m in found}
    names = {row.code: row.name for row in session.execute(select(Club.code, Club.name).where(Club.code.in_(codes)))}
    return render(
        request,
        "staff_memberships.html",
        {
            "pkz": pkz,
            "values": values,
            "memberships": found,
            "club_names": names,
            "current": [m for m in found if m.valid_until is None],
            "done": None if done is None else DONE[done],
            "redo_from": redo_from,
            "redo_tournament": redo_tournament,
        },
    )


@router.post("/staff/players/{pkz}/memberships")
def join_club(
    request: Request,
    session: RequestSession,
    pkz: PersonNumber,
    *,
    club_code: Text,
    valid_from: Text,
    member_no: Text = "",
    status: Status = "active",
) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    joined = join(
        session,
        caller,
        pkz,
        checked_key("club_code", club_code, CLUB_CODE),
        member_no=number("member_no", member_no, low=1, high=INT32_MAX),
        status=status,
        valid_from=day("valid_from", valid_from),
    )
    return back_to(_page(pkz), "joined", **recalculation_hint(recalculation_from(joined.reach)))


@router.post("/staff/memberships/{membership_id}")
def save_membership(
    request: Request,
    session: RequestSession,
    membership_id: MembershipId,
    *,
    valid_from: Text,
    valid_until: Text = "",
    member_no: Text = "",
    status: Status = "active",
) -> RedirectResponse:
    """The form shows the membership whole: what it sends is the membership (an empty last day:
    current; an empty number: none)."""
    require_same_origin(request)
    caller = admin(request, session)
    given = {
        "member_no": number("member_no", member_no, low=1, high=INT32_MAX),
        "status": status,
        "valid_from": day("valid_from", valid_from),
        "valid_until": optional_day("valid_until", valid_until),
    }
    membership = edit_membership(session, caller, membership_id, given)
    return back_to(_page(membership.player_pkz), "saved")


@router.post("/staff/players/{pkz}/transfers")
def transfer_player(
    request: Request,
    session: RequestSession,
    pkz: PersonNumber,
    *,
    from_club: Text,
    to_club: Text,
    first_day: Annotated[str, Form(alias="date", max_length=100)],
    member_no: Text = "",
    status: Status = "active",
) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    _, joined = transfer(
        session,
        caller,
        pkz,
        from_club=checked_key("from_club", from_club, CLUB_CODE),
        to_club=checked_key("to_club", to_club, CLUB_CODE),
        on=day("date", first_day),
        member_no=number("member_no", member_no, low=1, high=INT32_MAX),
        status=status,
    )
    return back_to(_page(pkz), "transferred", **recalculation_hint(recalculation_from(joined.reach)))
