"""Small pages a club may put in a frame on its own website: a club's member list, a player's
card and the federation's standard top lists (``zdb.ratings.top_lists``). Their addresses end in
``/latest`` and stay the same: they always show the current ratings.

Only these pages may be framed, by the sites ``Settings.embed_frame_ancestors`` names (every
other answer of ZDB is framed by nobody: ``zdb.api.security_headers``). They show public data
only (a withheld name as ``***``, no birth date), load only ZDB's style sheet, and open ZDB's own
pages in a new window (``target="_top"`` would navigate the club's site).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Path, Request
from fastapi.responses import HTMLResponse

from zdb.auth.principal import PUBLIC
from zdb.editions.sources import list_source
from zdb.endpoints.dependencies import PersonNumber, RequestSession
from zdb.errors import NotFoundError
from zdb.federations.models import Club
from zdb.messages import Message
from zdb.ratings import dewis_queries, list_queries, player_queries
from zdb.ratings.provisional_rows import provisional_rows
from zdb.ratings.top_lists import TOP_LISTS, TopListKind, top_list
from zdb.web.federation_names import federation_name
from zdb.web.i18n import mark
from zdb.web.rendering import render
from zdb.web.routes.router import page_router

__all__ = ["router"]

router = page_router()

#: the lists' titles
TITLES: dict[str, str] = {
    "all": mark("Top list"),
    "women": mark("Top list: women"),
    "u20": mark("Top list: under 20"),
    "u20-women": mark("Top list: girls under 20"),
    "50plus": mark("Top list: 50 and over"),
    "50plus-women": mark("Top list: women 50 and over"),
    "65plus": mark("Top list: 65 and over"),
    "65plus-women": mark("Top list: women 65 and over"),
    "75plus": mark("Top list: 75 and over"),
    "75plus-women": mark("Top list: women 75 and over"),
}
#: how many a framed top list shows
TOP_LENGTH = 100


def _framed(request: Request, template: str, context: dict[str, Any]) -> HTMLResponse:
    ancestors = request.app.state.settings.embed_frame_ancestors
    policy = (
        "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
        f"frame-ancestors {ancestors}"
    )
    return render(request, template, context, headers={"Content-Security-Policy": policy})


@router.get("/embed/clubs/{code}/latest", response_class=HTMLResponse)
def club_members(
    request: Request, session: RequestSession, code: Annotated[str, Path(min_length=1, max_length=5)]
) -> HTMLResponse:
    found = session.get(Club, code)
    if found is None:
        raise NotFoundError(Message("no club has the code {code!r}", code=code))
    members, _ = list_queries.club_members(session, code, list_source(session, at=None, edition=None))
    ordered = sorted(members, key=lambda m: (m.rating is None, -(m.rating or 0), m.surname, m.given_name))
    marks = provisional_rows(session, [m.pkz for m in ordered], days=request.app.state.settings.complaint_days)
    return _framed(request, "embed_club.html", {"club": found, "members": ordered, "marks": marks})


@router.get("/embed/players/{pkz}/latest", response_class=HTMLResponse)
def player(request: Request, session: RequestSession, pkz: PersonNumber) -> HTMLResponse:
    # a merged number shows its survivor's card
    card = player_queries.player_card(session, dewis_queries.survivor_of(session, pkz), PUBLIC)
    tournaments = [e for e in reversed(card.history) if e.kind == "tournament" and e.evaluation is not None][:10]
    current = [m for m in card.memberships if m.valid_until is None]
    return _framed(request, "embed_player.html", {"card": card, "clubs": current, "tournaments": tournaments})


@router.get("/embed/top-lists/{federation}/{kind}/latest", response_class=HTMLResponse)
def top(
    request: Request,
    session: RequestSession,
    federation: Annotated[str, Path(min_length=1, max_length=4, description="a prefix, or 'all'")],
    kind: TopListKind,
) -> HTMLResponse:
    prefix = "" if federation == "all" else federation
    if prefix:
        list_queries.require_federation(session, prefix)
    days = request.app.state.settings.complaint_days
    rows = top_list(
        session, kind, federation=prefix, year=datetime.now(UTC).year, limit=TOP_LENGTH, complaint_days=days
    )
    name = federation_name(session, prefix) if prefix else None
    context = {"rows": rows, "title": TITLES[kind], "federation": name, "kinds": list(TOP_LISTS), "prefix": federation}
    return _framed(request, "embed_top.html", context)
