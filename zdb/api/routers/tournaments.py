"""Tournaments: the list, one tournament, its evaluation report, its crosstable, the
explanation of one player's rating change in it, and FIDE's report file."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response

from zdb.api.conditional import conditional_json
from zdb.api.openapi import problems
from zdb.complaints.answers import provisional_out
from zdb.complaints.periods import provisional_marks
from zdb.endpoints.dependencies import (
    Caller,
    Paging,
    PersonNumber,
    QueryDate,
    RequestSession,
    TournamentId,
    get_principal,
)
from zdb.endpoints.pagination import Page
from zdb.endpoints.referee_writes import authorize, stored_federation
from zdb.fide.report import fide_report, report_file_name
from zdb.formats.trf.writer import TrfVersion
from zdb.ratings.evaluation_report import evaluation_report
from zdb.ratings.explanation_queries import explain_rating_change
from zdb.ratings.schemas import ExplanationOut
from zdb.ratings.status_queries import results_stamp
from zdb.tournaments import queries
from zdb.tournaments.schemas import (
    Crosstable,
    EvaluationReport,
    TournamentDetail,
    TournamentStatus,
    TournamentSummary,
)

__all__ = ["router"]

router = APIRouter(prefix="/tournaments", tags=["tournaments"], dependencies=[Depends(get_principal)])


@router.get("", response_model=Page[TournamentSummary], summary="Tournaments by period, federation subtree and text")
def list_tournaments(
    *,
    request: Request,
    session: RequestSession,
    paging: Paging,
    period_from: Annotated[QueryDate | None, Query(alias="from", description="end date on or after")] = None,
    period_to: Annotated[QueryDate | None, Query(alias="to", description="end date on or before")] = None,
    federation: Annotated[
        str | None, Query(max_length=5, description="organised in this subtree (club-code prefix)")
    ] = None,
    q: Annotated[str | None, Query(max_length=200, description="text in the name, or the acronym")] = None,
    status: TournamentStatus | None = None,
) -> Response:
    items, total, stamp = queries.list_tournaments(
        session,
        period_from=period_from,
        period_to=period_to,
        federation=federation,
        text=q,
        status=status,
        limit=paging.limit,
        offset=paging.offset,
    )
    return conditional_json(request, paging.page(items, total), stamp, results_stamp(session))


@router.get("/{tournament_id}", response_model=TournamentDetail, summary="One tournament", responses=problems(404))
def tournament(*, request: Request, session: RequestSession, tournament_id: TournamentId) -> Response:
    detail = queries.tournament_detail(session, tournament_id)
    return conditional_json(request, detail, detail.submitted_at, detail.withdrawn_at, results_stamp(session))


@router.get(
    "/{tournament_id}/evaluation",
    response_model=EvaluationReport,
    summary="The evaluation report: every participant's figures",
    responses=problems(404),
)
def evaluation(*, request: Request, session: RequestSession, tournament_id: TournamentId) -> Response:
    report = evaluation_report(session, tournament_id)
    if report.version is not None:
        today, days = datetime.now(UTC).date(), request.app.state.settings.complaint_days
        marks = provisional_marks(session, [tournament_id], today=today, days=days)
        report.provisional = provisional_out(marks.get(tournament_id))
    return conditional_json(request, report, report.tournament.submitted_at, results_stamp(session))


@router.get(
    "/{tournament_id}/crosstable",
    response_model=Crosstable,
    summary="The crosstable of the current version",
    responses=problems(404),
)
def crosstable(*, request: Request, session: RequestSession, tournament_id: TournamentId) -> Response:
    table = queries.crosstable(session, tournament_id)
    return conditional_json(request, table, table.tournament.submitted_at, results_stamp(session))


@router.get(
    "/{tournament_id}/players/{pkz}/explanation",
    response_model=ExplanationOut,
    summary="Explain a rating change: every term of the formula",
    description="The rating engine recomputes the player's evaluation from the stored inputs and lays open each "
    "game's expected score, E with J, E0, fB, SBr and its caps (classic) or K with K0, a and b (WO 2026), and every "
    "rounding; beside it, the stored figures.",
    responses=problems(404, 409),
)
def explanation(
    *, request: Request, session: RequestSession, tournament_id: TournamentId, pkz: PersonNumber
) -> Response:
    explained = explain_rating_change(session, tournament_id, pkz)
    return conditional_json(request, explained, results_stamp(session))


#: the beginning of a report, as the API documentation shows it
_TRF_EXAMPLE = (
    "012 Open Musterstadt 2026\r\n042 2026/11/20\r\n052 2026/11/22\r\n062 4\r\n"
    "001    1 m    Mustermann, Max                   2105 GER     4601234 1990/00/00  2.0    1     3 w 1     2 b 1\r\n"
)


@router.get(
    "/{tournament_id}/fide-report.trf",
    summary="FIDE's report file (TRF16 or TRF-2026) of the current version",
    description="For the referees whose scope holds the tournament's federation, and for staff. Players with "
    "their FIDE ids and the FIDE ratings they started with, every game by round (forfeits as + and -), a round "
    "without a game as a zero-point bye. `version` chooses TRF16 or TRF-2026; without it a tournament ending on "
    "or after 2025-09-01 (from when FIDE applies TRF-2026) and every team season get TRF-2026 (142 rounds, 152 "
    "initial colour, 192 type, 222 encoded rate of play, the 240 bye section, 310 teams with points and rank), "
    "older individual tournaments TRF16. Refused (422) when games were stored without rounds.",
    response_class=Response,
    responses={
        200: {
            "content": {"text/plain": {"schema": {"type": "string"}, "example": _TRF_EXAMPLE}},
            "description": "the TRF16 file",
        },
        **problems(401, 403, 404, 422),
    },
)
def fide_report_file(
    *,
    session: RequestSession,
    caller: Caller,
    tournament_id: TournamentId,
    version: Annotated[
        TrfVersion | None, Query(description="trf16 or trf26; without it, the version the tournament needs")
    ] = None,
) -> Response:
    caller.require("admin", "referee")
    authorize(caller, stored_federation(session, tournament_id, for_change=False))
    text = fide_report(session, tournament_id, version)
    return Response(
        text.encode("utf-8"),
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{report_file_name(tournament_id)}"'},
    )
