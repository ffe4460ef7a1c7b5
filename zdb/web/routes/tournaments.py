"""The tournament page (status, evaluation table, crosstable with tie-breaks and, for a round
robin, the n×n table; for a team season the league table, team crosstable and boards) and the
explanation of one player's rating change (every term of the formula)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request
from fastapi.responses import HTMLResponse

from zdb.api.dependencies import PersonNumber, RequestSession, TournamentId
from zdb.api.stored_standings import stored_team_season
from zdb.ratings.queries import explain_rating_change
from zdb.standings.model import PairingSystem
from zdb.tournaments.queries import crosstable, evaluation_report, tournament_detail
from zdb.tournaments.standings_queries import stored_games
from zdb.web.crosstable_view import crosstable_view
from zdb.web.notation import page_notation
from zdb.web.rendering import render
from zdb.web.routes.router import page_router
from zdb.web.team_view import team_view

__all__ = ["router"]

router = page_router()


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
def tournament_page(
    request: Request,
    session: RequestSession,
    tournament_id: TournamentId,
    pairing: Annotated[PairingSystem | None, Query()] = None,
) -> HTMLResponse:
    """``pairing``: the system that decides the tie-breaks; default: as the pairings show."""
    detail = tournament_detail(session, tournament_id)
    report = evaluation_report(session, tournament_id)
    table = crosstable(session, tournament_id)
    notation = page_notation(request)
    season = stored_team_season(stored_games(session, tournament_id)[1]) if detail.kind == "team_season" else None
    if season is not None:
        names = {str(row.pkz): f"{row.surname}, {row.given_name}" for row in table.rows}
        context = {"detail": detail, "report": report, "team": team_view(season, names, notation), "view": None}
        return render(request, "tournament.html", context)
    view, _ = crosstable_view(table, pairing, notation)
    return render(
        request,
        "tournament.html",
        {
            "detail": detail,
            "report": report,
            "team": None,
            "view": view,
            "pairing": view.pairing_system.value,
            "pairings": PairingSystem,
        },
    )


@router.get("/tournaments/{tournament_id}/players/{pkz}/explanation", response_class=HTMLResponse)
def explanation_page(
    request: Request, session: RequestSession, tournament_id: TournamentId, pkz: PersonNumber
) -> HTMLResponse:
    explained = explain_rating_change(session, tournament_id, pkz)
    return render(request, "explanation.html", {"x": explained})
