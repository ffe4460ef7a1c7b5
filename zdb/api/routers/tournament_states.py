"""A tournament's states: where it stands now and every change with who, when and why."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from zdb.api.conditional import conditional_json
from zdb.api.openapi import problems
from zdb.endpoints.dependencies import RequestSession, TournamentId
from zdb.tournaments.lifecycle_schemas import StateChangeOut, TournamentStatesOut
from zdb.tournaments.states import tournament_states

__all__ = ["router"]

router = APIRouter(prefix="/tournaments", tags=["tournaments"])


@router.get(
    "/{tournament_id}/states",
    response_model=TournamentStatesOut,
    summary="A tournament's state and its history (submitted, corrected, evaluated, withdrawn, with who and when)",
    responses=problems(404),
)
def states(*, request: Request, session: RequestSession, tournament_id: TournamentId) -> Response:
    found = tournament_states(session, tournament_id)
    out = TournamentStatesOut(
        id=tournament_id,
        state=found.state,  # type: ignore[arg-type]  # the table's check keeps it a state
        history=[
            StateChangeOut(state=c.state, at=c.at, by=c.by, why=c.why, version=c.version)  # type: ignore[arg-type]
            for c in found.history
        ],
    )
    return conditional_json(request, out)
