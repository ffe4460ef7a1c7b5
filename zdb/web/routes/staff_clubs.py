"""The staff's club page: a club's data with the forms to rename it, move it to another
federation of its code and dissolve it (its members' current memberships end that day), and the
creation of a club. For a signed-in admin.

The page writes through the services the API uses (``zdb.office.tree``), each change audited.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Form, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from zdb.endpoints.dependencies import INT32_MAX, RequestSession
from zdb.errors import NotFoundError
from zdb.federations.models import Club
from zdb.messages import Message
from zdb.office.tree import create_club, dissolve_club, edit_club
from zdb.players.club_queries import club as club_summary
from zdb.web.federation_names import federation_name
from zdb.web.i18n import mark
from zdb.web.referee_session import require_same_origin
from zdb.web.rendering import render
from zdb.web.routes.router import page_router
from zdb.web.routes.staff_forms import CLUB_CODE, HOME, Name, Text, admin, back_to, checked_key, day

__all__ = ["router"]

router = page_router()

ClubCode = Annotated[str, Path(min_length=5, max_length=5)]
DONE = {
    "created": mark("Saved: the club is created."),
    "saved": mark("Saved."),
    "dissolved": mark("Saved: the club is dissolved."),
}


@router.get("/staff/clubs/{code}", response_class=HTMLResponse)
def club_page(
    request: Request,
    session: RequestSession,
    code: ClubCode,
    done: Annotated[Literal["created", "saved", "dissolved"] | None, Query()] = None,
    ended: Annotated[int | None, Query(ge=0, le=INT32_MAX)] = None,
) -> HTMLResponse:
    admin(request, session)
    found = session.get(Club, code)
    if found is None:
        raise NotFoundError(Message("no club has the code {code!r}", code=code))
    context: dict[str, Any] = {
        "club": found,
        "summary": club_summary(session, code),
        "federation_name": federation_name(session, found.federation_prefix),
        "done": None if done is None else DONE[done],
        "ended": ended,
    }
    return render(request, "staff_club.html", context)


@router.post("/staff/clubs")
def new_club(
    request: Request,
    session: RequestSession,
    *,
    club_code: Annotated[str, Form(alias="code", max_length=100)],
    name: Name,
    federation_prefix: Text = "",
) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    made = create_club(session, caller, checked_key("code", club_code, CLUB_CODE), name, _home(federation_prefix))
    return back_to(f"/staff/clubs/{made.code}", "created")


@router.post("/staff/clubs/{code}")
def rename(request: Request, session: RequestSession, code: ClubCode, *, name: Name) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    edit_club(session, caller, code, {"name": name})
    return back_to(f"/staff/clubs/{code}", "saved")


@router.post("/staff/clubs/{code}/move")
def move(
    request: Request, session: RequestSession, code: ClubCode, *, federation_prefix: Text = ""
) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    edit_club(session, caller, code, {"federation_prefix": _home(federation_prefix)})
    return back_to(f"/staff/clubs/{code}", "saved")


@router.post("/staff/clubs/{code}/dissolution")
def dissolve(request: Request, session: RequestSession, code: ClubCode, *, date: Text) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    ended = dissolve_club(session, caller, code, day("date", date))
    return back_to(f"/staff/clubs/{code}", "dissolved", ended=str(ended))


def _home(text: str) -> str:
    return checked_key("federation_prefix", text, HOME)
