"""The standings of a stored tournament and the rating simulator (issue: tie-breaks and the
simulator of the federation's documents, seeds 002 and 003)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, RootModel

from zdb.api.conditional import conditional_json
from zdb.api.openapi import problems
from zdb.endpoints.dependencies import RequestSession, TournamentId, get_principal
from zdb.endpoints.stored_standings import stored_standings_document
from zdb.ratings.status_queries import results_stamp
from zdb.simulator import DEFAULT_SYSTEMS, SimulationRequest, System, dump_simulation, simulate
from zdb.standings.model import PairingSystem
from zdb.tournaments.standings_queries import stored_games

__all__ = ["router"]

router = APIRouter(tags=["tools"], dependencies=[Depends(get_principal)])


_STANDINGS_EXAMPLE = {
    "tournament": 4,
    "version": 1,
    "type": "individual",
    "pairing_system": "round-robin",
    "rounds": 7,
    "tie_break_order": ["SB"],
    "rows": [{"rank": 1, "player": "10000003", "points": 6.0, "games": 7, "SB": 19.5, "BH": 22.0}],
}
_SIMULATION_EXAMPLE = {
    "player": {"rating": 1600, "index": 12, "birth_year": 1986, "age": 40, "games_played": None},
    "opponents": [1700],
    "end_date": "2026-09-27",
    "systems": [
        {
            "system": "dwz",
            "rule_set": "wo2026",
            "expected": 0.361837,
            "outcomes": [{"score": 1.0, "rating": 1618, "change": 18, "K": 28.0}],
        }
    ],
}


def _example(example: dict[str, Any]) -> dict[int | str, dict[str, Any]]:
    return {200: {"content": {"application/json": {"example": example}}}}


@router.get(
    "/tournaments/{tournament_id}/standings",
    summary="Standings with the tie-breaks of the FIDE Tie-Break Regulations; a team season's league table",
    description=(
        "An individual tournament: points, rank and tie-breaks, every round's cells and, for a round robin "
        "(read from the pairings unless `pairing` is given), the n×n crosstable. A team season: match points, "
        "board points, Berliner Wertung, the team crosstable and each player's boards."
    ),
    responses={**_example(_STANDINGS_EXAMPLE), **problems(404)},
)
def standings(
    *,
    request: Request,
    session: RequestSession,
    tournament_id: TournamentId,
    pairing: Annotated[
        PairingSystem | None, Query(description="decides the default tie-breaks; default: read from the pairings")
    ] = None,
) -> Response:
    record, stored = stored_games(session, tournament_id)
    document = {"tournament": tournament_id, "version": stored.version, **stored_standings_document(stored, pairing)}
    return conditional_json(request, _Document(document), record.withdrawn_at, results_stamp(session))


class _Document(RootModel[dict[str, Any]]):
    """A finished JSON document, for the conditional (ETag) answer."""


class SimulationBody(BaseModel):
    """The player and his opponents; ratings on each system's own scale (DWZ, FIDE Elo, FCR: the Freechess
    rating of the online server Freechess, Ingo)."""

    rating: int = Field(gt=0, examples=[1600])
    opponents: list[int] = Field(min_length=1, max_length=60, examples=[[1700, 1550, 1620]])
    end_date: date = Field(examples=["2026-09-27"])
    index: int = Field(default=1, ge=0, examples=[12])
    birth_year: int | None = Field(default=None, examples=[1986])
    games_played: int | None = Field(default=None, ge=0, description="rated games before (FIDE K); null: 30+")
    reached_2400: bool = False
    systems: list[System] = Field(default_factory=lambda: list(DEFAULT_SYSTEMS))


@router.post(
    "/simulator",
    summary="New ratings for every possible score (DWZ, FIDE, FCR, Ingo)",
    response_model=None,
    responses={**_example(_SIMULATION_EXAMPLE), **problems(422)},
)
def simulator(body: SimulationBody) -> JSONResponse:
    request = SimulationRequest(
        rating=body.rating,
        opponents=tuple(body.opponents),
        end_date=body.end_date,
        index=body.index,
        birth_year=body.birth_year,
        games_played=body.games_played,
        reached_2400=body.reached_2400,
    )
    return JSONResponse(dump_simulation(simulate(request, body.systems)))
