"""The start page: search players by name (umlaut- and accent-insensitive, through the
player queries' folded names) and clubs by name or code, the players page by page; beside it
the federation's top ten, the latest evaluated tournaments and the recalculation's state.

The page is a GET form and works without JavaScript; ``/search/results`` answers the results
alone, which ``static/search.js`` fetches while the user types.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query, Request
from fastapi.responses import HTMLResponse
from sqlalchemy.orm import Session

from zdb.endpoints.dependencies import RequestSession
from zdb.players.club_queries import list_clubs
from zdb.ratings.player_queries import name_terms, search_players
from zdb.web.overview import overview
from zdb.web.rendering import render
from zdb.web.routes.router import page_router

__all__ = ["router"]

router = page_router()

PLAYER_LIMIT = 25
CLUB_LIMIT = 10
#: fewer letters than this search nothing: every player would match
MIN_LETTERS = 2

SearchText = Annotated[str, Query(max_length=200)]
#: the page of the players found, from 1
PageNumber = Annotated[int, Query(ge=1, le=10_000)]


def _results(session: Session, q: str, page: int) -> dict[str, Any]:
    text = q.strip()
    if len("".join(name_terms(text))) < MIN_LETTERS:
        return {"q": text, "searched": False, "players": [], "clubs": [], "players_total": 0, "clubs_total": 0}
    players, players_total, _ = search_players(
        session, name=text, club=None, fide_id=None, limit=PLAYER_LIMIT, offset=(page - 1) * PLAYER_LIMIT
    )
    clubs, clubs_total = list_clubs(session, federation=None, text=text, limit=CLUB_LIMIT, offset=0)
    return {
        "q": text,
        "searched": True,
        "players": players,
        "clubs": clubs,
        "players_total": players_total,
        "clubs_total": clubs_total,
        "page": page,
        "pages": max(1, -(-players_total // PLAYER_LIMIT)),
        "first_shown": (page - 1) * PLAYER_LIMIT + 1,
    }


@router.get("/", response_class=HTMLResponse)
def search_page(request: Request, session: RequestSession, q: SearchText = "", page: PageNumber = 1) -> HTMLResponse:
    return render(
        request,
        "search.html",
        _results(session, q, page) | overview(session, complaint_days=request.app.state.settings.complaint_days),
    )


@router.get("/search/results", response_class=HTMLResponse)
def search_results(request: Request, session: RequestSession, q: SearchText = "", page: PageNumber = 1) -> HTMLResponse:
    return render(request, "search_results.html", _results(session, q, page))
