"""The tournament page (status, evaluation table, crosstable with tie-breaks and, for a round
robin, the n×n table; for a team season the league table, team crosstable and boards) and the
explanation of one player's rating change (every term of the formula)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Query, Request
from fastapi.responses import HTMLResponse
from sqlalchemy.orm import Session

from zdb.complaints.answers import provisional_out
from zdb.complaints.periods import provisional_marks
from zdb.endpoints.dependencies import PersonNumber, RequestSession, TournamentId
from zdb.errors import NotFoundError
from zdb.ratings.evaluation_report import evaluation_report
from zdb.ratings.explanation_queries import explain_rating_change
from zdb.ratings.impact_queries import RunOut, tournament_impact
from zdb.standings.model import PairingSystem
from zdb.tournaments.queries import crosstable, tournament_detail
from zdb.tournaments.states import tournament_states
from zdb.web.crosstable_view import crosstable_view
from zdb.web.federation_names import federation_name
from zdb.web.notation import page_notation
from zdb.web.rendering import render
from zdb.web.routes.router import page_router
from zdb.web.team_view import kept_team_view

__all__ = ["router"]

router = page_router()


def _impact(session: Session, tournament_id: int) -> RunOut | None:
    """What the last evaluation of the tournament moved (None: not evaluated yet)."""
    try:
        return tournament_impact(session, tournament_id)
    except NotFoundError:
        return None


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
    if report.version is not None:
        days = request.app.state.settings.complaint_days
        marks = provisional_marks(session, [tournament_id], today=datetime.now(UTC).date(), days=days)
        report.provisional = provisional_out(marks.get(tournament_id))
    notation = page_notation(request)
    context: dict[str, Any] = {
        "detail": detail,
        "report": report,
        "federation_name": federation_name(session, detail.federation_prefix),
        "impact": _impact(session, tournament_id),
        "states": tournament_states(session, tournament_id),
    }
    if detail.kind == "team_season":
        team = kept_team_view(session, tournament_id, detail.version, notation)
        if team is not None:
            return render(request, "tournament.html", {**context, "team": team, "view": None})
    view, _ = crosstable_view(crosstable(session, tournament_id), pairing, notation)
    context |= {"team": None, "view": view, "pairing": view.pairing_system.value, "pairings": PairingSystem}
    return render(request, "tournament.html", context)


@router.get("/tournaments/{tournament_id}/players/{pkz}/explanation", response_class=HTMLResponse)
def explanation_page(
    request: Request, session: RequestSession, tournament_id: TournamentId, pkz: PersonNumber
) -> HTMLResponse:
    explained = explain_rating_change(session, tournament_id, pkz)
    return render(request, "explanation.html", {"x": explained})
