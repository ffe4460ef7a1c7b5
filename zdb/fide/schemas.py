"""What a referee sends to register an announced tournament with FIDE, and what ZDB answers:
the registration, its deadline's outcome, and where the tournament stands (registered, results
received, evaluated) with the results' deadline."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from zdb.common.utc import UtcDateTime

__all__ = ["ArbiterIn", "FideRegistrationIn", "FideRegistrationOut", "FideReportStateOut"]


def _printable(value: str) -> str:
    if not value.isprintable():
        raise ValueError("must not contain control characters (tab, newline, NUL, ...)")
    return value.strip()


Text = Annotated[str, AfterValidator(_printable)]
Category = Literal["standard", "rapid", "blitz"]
System = Literal["swiss", "round_robin", "team"]


class ArbiterIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    fide_id: int = Field(ge=1, le=999_999_999, description="the arbiter's FIDE id", examples=[4600002])
    name: Text = Field(min_length=1, max_length=120, examples=["Weber, Anna"])


class FideRegistrationIn(BaseModel):
    """What FIDE asks of a tournament to be rated."""

    model_config = ConfigDict(extra="forbid")

    chief_arbiter: ArbiterIn
    deputy_arbiter: ArbiterIn | None = None
    rate_of_play: Text = Field(min_length=1, max_length=100, examples=["90 min/40 moves + 30 min + 30 s"])
    category: Category = Field(description="FIDE's rating the tournament counts for", examples=["standard"])
    system: System = Field(examples=["round_robin"])
    rounds: int = Field(ge=1, le=99, examples=[3])


class FideReportStateOut(BaseModel):
    """The results' side: when they came and whether in time."""

    tournament_id: int | None = Field(description="the submitted tournament (null: no results yet)")
    report_due: date = Field(description="the last day the results are on time (the end + 7 days)")
    results_sent_on: date | None = Field(description="the day the results were first submitted")
    late: bool | None = Field(description="sent after the due day (null: not sent yet)")
    days_late: int | None
    evaluated: bool


class FideRegistrationOut(BaseModel):
    code: str = Field(description="the announcement's code")
    name: str
    start_date: date
    end_date: date
    chief_arbiter_fide_id: int
    chief_arbiter_name: str
    deputy_arbiter_fide_id: int | None
    deputy_arbiter_name: str | None
    rate_of_play: str
    category: Category
    system: System
    rounds: int
    registered_at: UtcDateTime
    registration_deadline: date = Field(description="six weeks before the start")
    days_before: int = Field(description="days between the registration and the start")
    registered_late: bool
    warnings: list[str] = Field(description="what was warned about when it was registered")
    state: Literal["registered", "results_received", "evaluated", "withdrawn"]
    report: FideReportStateOut
