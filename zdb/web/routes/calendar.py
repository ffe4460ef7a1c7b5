"""The public calendar: the tournaments announced for rating, from today on (``?from=`` for
another day, ``?federation=`` for a subtree), and a page per announcement (a cancelled one
says so, with the reason)."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import Path, Query, Request
from fastapi.responses import HTMLResponse

from zdb.endpoints.dependencies import RequestSession
from zdb.tournaments.announcements import announcement_out, calendar, find_announcement
from zdb.web.rendering import render
from zdb.web.routes.router import page_router

__all__ = ["router"]

router = page_router()

#: the calendar shows at most this many tournaments
SHOWN = 200


@router.get("/calendar", response_class=HTMLResponse)
def calendar_page(
    request: Request,
    session: RequestSession,
    date_from: Annotated[date | None, Query(alias="from")] = None,
    federation: Annotated[str, Query(max_length=4)] = "",
) -> HTMLResponse:
    first = date_from or date.today()
    items, total = calendar(
        session, date_from=first, date_to=None, federation=federation or None, limit=SHOWN, offset=0
    )
    return render(request, "calendar.html", {"items": items, "total": total, "first": first, "federation": federation})


@router.get("/calendar/{code}", response_class=HTMLResponse)
def announcement_page(
    request: Request, session: RequestSession, code: Annotated[str, Path(min_length=1, max_length=12)]
) -> HTMLResponse:
    return render(request, "announcement.html", {"a": announcement_out(find_announcement(session, code))})
