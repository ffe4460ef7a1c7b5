"""A tournament's life in the federation, as the API answers it: what an organiser sends to
announce a tournament, what the public calendar answers, a federation's rules, and a
tournament's states with who, when and why.

Apart from ``submission_schemas.py``: an announcement is made before play and names no players
or games; the calendar shows it to everyone (no e-mail address or other contact is kept here).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from zdb.common.utc import UtcDateTime

__all__ = [
    "AnnouncementIn",
    "AnnouncementOut",
    "FederationSettingsIn",
    "FederationSettingsOut",
    "StateChangeOut",
    "TournamentStatesOut",
]


def _printable(value: str) -> str:
    if not value.isprintable():
        raise ValueError("must not contain control characters (tab, newline, NUL, ...)")
    return value.strip()


Text = Annotated[str, AfterValidator(_printable)]
Mode = Literal["swiss", "round_robin", "team", "other"]


class AnnouncementIn(BaseModel):
    """A tournament to be rated, announced before it starts."""

    model_config = ConfigDict(extra="forbid")

    federation: Text = Field(max_length=4, description="the organising federation (club-code prefix)", examples=["101"])
    name: Text = Field(min_length=1, max_length=200, examples=["Herbstopen Sankt Rosenheim 2026"])
    place: Text = Field(min_length=1, max_length=100, examples=["Sankt Rosenheim"])
    start_date: date = Field(examples=["2026-11-27"])
    end_date: date = Field(examples=["2026-11-29"])
    rounds: int = Field(ge=1, le=99, examples=[5])
    mode: Mode = Field(examples=["round_robin"])
    time_control: Text = Field(min_length=1, max_length=100, examples=["90 min + 30 s"])
    organiser: Text = Field(min_length=1, max_length=200, examples=["Post SV Sankt Rosenheim"])
    referee: Text = Field(min_length=1, max_length=200, description="the responsible referee", examples=["A. Weber"])
    fide_rated: bool = Field(default=False, description="also submitted to FIDE")


class AnnouncementOut(BaseModel):
    code: str = Field(description="name it when submitting (`announcement=`)", examples=["2026-0001"])
    federation: str = Field(examples=["101"])
    name: str
    place: str
    start_date: date
    end_date: date
    rounds: int
    mode: Mode
    time_control: str
    organiser: str
    referee: str
    fide_rated: bool
    announced_at: UtcDateTime
    tournament_id: int | None = Field(description="the submitted tournament, once it is stored", examples=[None])
    cancelled_at: UtcDateTime | None = Field(default=None, description="when it was cancelled (null: it stands)")
    cancel_reason: str | None = Field(default=None, description="why it was cancelled")


class FederationSettingsIn(BaseModel):
    """A federation's own rules; null leaves a rule to the parent federation."""

    model_config = ConfigDict(extra="forbid")

    announcement: Literal["off", "warn", "required"] | None = Field(
        default=None,
        description="off: nothing asked; warn: an unannounced tournament is stored with a warning; required: refused",
    )
    announcement_days: int | None = Field(
        default=None, ge=0, le=365, description="how many days before the start the announcement must be made"
    )
    fide_registration: Literal["warn", "refuse"] | None = Field(
        default=None,
        description="a FIDE registration later than six weeks before the start: warn (stored with a warning) "
        "or refuse (the rating office is only warned)",
    )


class FederationSettingsOut(BaseModel):
    prefix: str
    own: FederationSettingsIn
    announcement: Literal["off", "warn", "required"]
    announcement_from: str | None = Field(description="the federation whose rule applies (null: the default)")
    announcement_days: int
    announcement_days_from: str | None
    fide_registration: Literal["warn", "refuse"] = Field(default="warn")
    fide_registration_from: str | None = Field(default=None, description="the federation whose rule applies")


State = Literal["submitted", "corrected", "in_review", "approved", "rejected", "evaluated", "withdrawn"]


class StateChangeOut(BaseModel):
    state: State
    at: datetime
    by: str = Field(description="the token's role and scope, or 'recalculation'", examples=["referee C (token 2)"])
    why: str | None = Field(default=None, description="the reason given (a withdrawal's, a rejection's)")
    version: int | None = Field(default=None, description="the tournament's version the change concerns")


class TournamentStatesOut(BaseModel):
    id: int
    state: State = Field(description="where the tournament stands now")
    history: list[StateChangeOut] = Field(description="every change, oldest first")
