"""What staff send to keep a fee schedule, and what ZDB answers about schedules, the fees of a
tournament and invoices. Amounts are decimals with two places, written as strings ("3.00")."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from zdb.common.utc import UtcDateTime

__all__ = [
    "FeeAssessmentOut",
    "FeeLineOut",
    "FeeScheduleIn",
    "FeeScheduleOut",
    "InvoiceIn",
    "InvoiceOut",
    "OpenFeesOut",
    "TierIn",
    "TournamentFeesOut",
]

Amount = Annotated[Decimal, Field(ge=0, le=Decimal("99999999.99"), decimal_places=2, examples=["3.00"])]
Kind = Literal["dwz_tournament", "dwz_game", "dwz_non_member", "fide_player", "fide_round_robin", "fide_late"]


class TierIn(BaseModel):
    """A round robin's fee per player from an average Elo on (up to the next tier's)."""

    model_config = ConfigDict(extra="forbid")

    from_elo: int = Field(ge=0, le=4000, description="the lowest average Elo of the tier", examples=[2230])
    amount: Amount


class FeeScheduleIn(BaseModel):
    """A federation's fees from ``valid_from`` to ``valid_until`` (both included; null: open)."""

    model_config = ConfigDict(extra="forbid")

    federation: str = Field(max_length=4, description="club-code prefix; its subtree pays by it", examples=[""])
    valid_from: date = Field(examples=["2026-01-01"])
    valid_until: date | None = Field(default=None, examples=[None])
    dwz_per_tournament: Amount = Decimal("0.00")
    dwz_per_game: Amount = Decimal("0.00")
    dwz_per_non_member: Amount = Decimal("0.00")
    fide_per_player: Amount = Field(default=Decimal("0.00"), description="Swiss and team tournaments")
    fide_round_robin: list[TierIn] = Field(
        default_factory=list, max_length=20, description="round robins, per player by the average Elo"
    )
    fide_late_report: Amount = Field(default=Decimal("0.00"), description="results sent from the 8th day on")
    note: str = Field(default="", max_length=200)

    @model_validator(mode="after")
    def _tiers_ascending(self) -> FeeScheduleIn:
        lows = [t.from_elo for t in self.fide_round_robin]
        if lows != sorted(set(lows)):
            raise ValueError("the round-robin tiers' from_elo must rise, each one once")
        return self


class TierOut(BaseModel):
    from_elo: int
    amount: Decimal


class FeeScheduleOut(BaseModel):
    id: int
    federation: str
    valid_from: date
    valid_until: date | None
    dwz_per_tournament: Decimal
    dwz_per_game: Decimal
    dwz_per_non_member: Decimal
    fide_per_player: Decimal
    fide_round_robin: list[TierOut]
    fide_late_report: Decimal
    note: str
    changed_at: UtcDateTime
    changed_by: str


class FeeLineOut(BaseModel):
    id: int
    tournament_id: int
    tournament_name: str
    kind: Kind
    quantity: int
    unit: Decimal
    amount: Decimal = Field(description="negative for a credit")
    credit_of: int | None = Field(description="the charge a credit cancels")
    booked_on: date
    invoice: str | None = Field(description="the invoice's number (null: not invoiced yet)")


class FeeAssessmentOut(BaseModel):
    """The fees computed for one evaluated version (or the withdrawal), with their basis."""

    version: int
    reason: Literal["evaluation", "withdrawal"]
    payer: str
    schedule_id: int | None
    end_date: date
    players: int
    games: int = Field(description="rated games (forfeits and other unrated results are not counted)")
    non_members: int
    fide_system: str | None
    average_elo: int | None = Field(description="of the FIDE-rated players (a round robin's tier)")
    days_late: int | None = Field(description="days the results came after the due day (FIDE-rated only)")
    computed_at: UtcDateTime | None = Field(description="null: not booked yet (computed as it would be now)")
    total: Decimal
    lines: list[FeeLineOut]


class TournamentFeesOut(BaseModel):
    tournament_id: int
    total: Decimal = Field(description="what is booked, credits included")
    assessments: list[FeeAssessmentOut]
    pending: FeeAssessmentOut | None = Field(
        description="the evaluated version's fees, not booked yet (booked at the next settlement)"
    )


class InvoiceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    payer: str = Field(min_length=1, max_length=200, description="the organiser (as announced) or federation")
    period_from: date
    period_to: date


class InvoiceOut(BaseModel):
    number: str
    payer: str
    period_from: date
    period_to: date
    total: Decimal
    issued_at: UtcDateTime
    issued_by: str
    lines: list[FeeLineOut]


class OpenFeesOut(BaseModel):
    """What a payer owes and has not been invoiced for yet."""

    payer: str
    lines: int
    total: Decimal
    first_booked_on: date
    last_booked_on: date
