"""The staff's federation pages: the tree, with the form to create a federation, and each
federation's page, with the forms to rename it, move it under another federation of its prefix,
dissolve it (with its sub-federations and clubs, their members' current memberships ended that
day) and create a club or a sub-federation in it. For a signed-in admin.

The pages write through the services the API uses (``zdb.office.tree``), each change audited.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.endpoints.dependencies import INT32_MAX, RequestSession
from zdb.errors import NotFoundError
from zdb.federations.models import Club, Federation
from zdb.messages import Message
from zdb.office.tree import create_federation, dissolve_federation, edit_federation
from zdb.web.i18n import mark
from zdb.web.referee_session import require_same_origin
from zdb.web.rendering import render
from zdb.web.routes.router import page_router
from zdb.web.routes.staff_forms import HOME, PREFIX, Name, Text, admin, back_to, checked_key, day

__all__ = ["router"]

router = page_router()

Prefix = Annotated[str, Path(min_length=1, max_length=4)]
DONE = {
    "created": mark("Saved: the federation is created."),
    "saved": mark("Saved."),
    "dissolved": mark("Saved: the federation is dissolved with its sub-federations and clubs."),
}


def _tree(session: Session) -> list[Federation]:
    return list(session.scalars(select(Federation).order_by(Federation.prefix)))


def _parents(tree: list[Federation]) -> list[Federation]:
    """The federations offered as a parent: those in being (the service says which fit)."""
    return [f for f in tree if f.dissolved_on is None]


@router.get("/staff/federations", response_class=HTMLResponse)
def tree_page(request: Request, session: RequestSession) -> HTMLResponse:
    admin(request, session)
    tree = _tree(session)
    return render(request, "staff_federations.html", {"tree": tree, "parents": _parents(tree)})


@router.get("/staff/federations/{prefix}", response_class=HTMLResponse)
def federation_page(
    request: Request,
    session: RequestSession,
    prefix: Prefix,
    done: Annotated[Literal["created", "saved", "dissolved"] | None, Query()] = None,
    ended: Annotated[int | None, Query(ge=0, le=INT32_MAX)] = None,
) -> HTMLResponse:
    admin(request, session)
    found = session.get(Federation, prefix)
    if found is None:
        raise NotFoundError(Message("no federation has the prefix {prefix!r}", prefix=prefix))
    tree = _tree(session)
    context: dict[str, Any] = {
        "federation": found,
        "parent": None if found.parent_prefix is None else session.get(Federation, found.parent_prefix),
        "below": [f for f in tree if f.parent_prefix == prefix],
        "parents": [f for f in _parents(tree) if f.prefix != prefix],
        "clubs": list(session.scalars(select(Club).where(Club.federation_prefix == prefix).order_by(Club.code))),
        "done": None if done is None else DONE[done],
        "ended": ended,
    }
    return render(request, "staff_federation.html", context)


@router.post("/staff/federations")
def new_federation(
    request: Request, session: RequestSession, *, prefix: Text, name: Name, parent_prefix: Text = ""
) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    made = create_federation(
        session,
        caller,
        checked_key("prefix", prefix, PREFIX),
        name,
        checked_key("parent_prefix", parent_prefix, HOME),
    )
    return back_to(f"/staff/federations/{made.prefix}", "created")


@router.post("/staff/federations/{prefix}")
def rename(request: Request, session: RequestSession, prefix: Prefix, *, name: Name) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    edit_federation(session, caller, prefix, {"name": name})
    return back_to(f"/staff/federations/{prefix}", "saved")


@router.post("/staff/federations/{prefix}/move")
def move(request: Request, session: RequestSession, prefix: Prefix, *, parent_prefix: Text = "") -> RedirectResponse:
    """Under another federation; an empty parent is the national federation."""
    require_same_origin(request)
    caller = admin(request, session)
    edit_federation(session, caller, prefix, {"parent_prefix": checked_key("parent_prefix", parent_prefix, HOME)})
    return back_to(f"/staff/federations/{prefix}", "saved")


@router.post("/staff/federations/{prefix}/dissolution")
def dissolve(request: Request, session: RequestSession, prefix: Prefix, *, date: Text) -> RedirectResponse:
    require_same_origin(request)
    caller = admin(request, session)
    ended = dissolve_federation(session, caller, prefix, day("date", date))
    return back_to(f"/staff/federations/{prefix}", "dissolved", ended=str(ended))
