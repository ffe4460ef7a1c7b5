"""What the API answers about tournaments: the list, one tournament, its evaluation report and
its crosstable. Absent values are null, never left out and never 0.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

from zdb.common.utc import UtcDateTime

__all__ = [
    "Crosstable",
    "CrosstableGame",
    "CrosstableRow",
    "EvaluationFigures",
    "EvaluationReport",
    "ProvisionalOut",
    "ReportRowOut",
    "TournamentDetail",
    "TournamentStatus",
    "TournamentSummary",
    "VersionOut",
]


Stage = Literal["established", "stage1", "stage2", "unrated"]
#: received: stored, waiting for the recalculation; evaluating: a run is in progress and this
#: tournament waits for it; evaluated: the stored evaluation is of the current version
TournamentStatus = Literal["received", "evaluating", "evaluated", "withdrawn"]


class EvaluationFigures(BaseModel):
    """One participant's row of a tournament evaluation (spec §9, §13.15)."""

    rule_set: str = Field(examples=["wo2026"])
    member: bool
    stage: Stage
    fide_start: bool = Field(description="R0 is a FIDE rating taken over as start value")
    r0: int | None = Field(description="rating before the tournament", examples=[1733])
    i0: int | None = Field(description="index before the tournament", examples=[13])
    w: float = Field(description="points in rated games", examples=[2.5])
    n: int = Field(description="rated games", examples=[4])
    unrated_games: int = Field(examples=[1])
    we: float | None = Field(description="expected points, 6 decimals", examples=[2.611504])
    e: int | None = Field(description="development coefficient (classic rule set)", examples=[None])
    k: float | None = Field(description="factor K (WO 2026)", examples=[28.0])
    rh: int | None = Field(description="performance", examples=[None])
    sonder: bool = Field(description="Ausnahmespieler (Sonderwertung, spec §9.6)")
    rn: int | None = Field(description="rating after the tournament", examples=[1729])
    i_new: int | None = Field(description="index after the tournament", examples=[14])
    stored: bool = Field(description="the result was written to the player's rating (false for guests)")
    leftover_used: int
    leftover_stored: int


class TournamentSummary(BaseModel):
    id: int = Field(examples=[4])
    version: int = Field(description="the current version (corrections keep the id)", examples=[1])
    acronym: str = Field(examples=["BLZ"])
    name: str = Field(examples=["Bezirksliga 2026"])
    federation_prefix: str | None = Field(description="the organising federation (club-code prefix)", examples=["C03"])
    start_date: date | None = Field(examples=["2026-09-18"])
    end_date: date = Field(examples=["2026-09-20"])
    kind: Literal["individual", "team_season"]
    time_control: str | None = Field(examples=["90 min + 30 s"])
    status: TournamentStatus
    evaluated_version: int | None = Field(description="the version the stored evaluation belongs to", examples=[1])
    players: int = Field(description="participants of the current version", examples=[6])
    submitted_at: UtcDateTime = Field(examples=["2026-09-21T07:58:00Z"])


class VersionOut(BaseModel):
    version: int = Field(examples=[1])
    acronym: str = Field(examples=["BLZ"])
    end_date: date
    submitted_at: UtcDateTime
    submitted_by: str = Field(examples=["referee C03"])


class TournamentDetail(TournamentSummary):
    round_dates: list[date] | None = Field(examples=[["2026-09-18", "2026-09-19", "2026-09-20"]])
    created_at: UtcDateTime
    withdrawn_at: UtcDateTime | None = Field(examples=[None])
    versions: list[VersionOut]


class ReportRowOut(EvaluationFigures):
    position: int = Field(description="0-based position in the submission's player list", examples=[0])
    pkz: int = Field(examples=[10000042])
    surname: str = Field(examples=["Müller"])
    given_name: str = Field(examples=["Anna"])


class EvaluationReport(BaseModel):
    tournament: TournamentSummary
    version: int | None = Field(description="the evaluated version; null before the first evaluation", examples=[1])
    current: bool = Field(description="the report is of the current version (nothing pending)")
    rule_set: str | None = Field(examples=["wo2026"])
    rows: list[ReportRowOut] = Field(description="every participant, in the submission's order")
    provisional: ProvisionalOut | None = Field(
        default=None,
        description="why the evaluation is still provisional (in review, inside its complaint period, an open "
        "complaint); null once it is definitive",
    )


class CrosstableGame(BaseModel):
    round: int | None = Field(examples=[1])
    board: int | None = Field(examples=[3])
    opponent: int = Field(description="the opponent's start number", examples=[2])
    color: Literal["white", "black"]
    result: str = Field(description="as submitted, white's score first", examples=["1-0"])
    points: float = Field(description="this player's points", examples=[1.0])
    rated: bool


class CrosstableRow(BaseModel):
    start_no: int = Field(examples=[1])
    pkz: int = Field(examples=[10000042])
    surname: str = Field(examples=["Müller"])
    given_name: str = Field(examples=["Anna"])
    birth_year: int | None = Field(examples=[1980])
    rating: int | None = Field(description="R0 of the evaluation of this version, if evaluated", examples=[1729])
    points: float = Field(description="every game, forfeits as scored", examples=[2.5])
    games: list[CrosstableGame]


class Crosstable(BaseModel):
    tournament: TournamentSummary
    version: int = Field(examples=[1])
    rows: list[CrosstableRow] = Field(description="in start-number order")


class ProvisionalOut(BaseModel):
    """Why an evaluation is still provisional (null where it is definitive)."""

    reasons: list[Literal["in_review", "complaint_period", "open_complaint"]]
    edition: str | None = Field(description="the edition that published it (null: not yet published)")
    until: date | None = Field(description="the last day of its complaint period")
