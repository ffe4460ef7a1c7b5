"""The review's answers and requests: the waiting submissions, an officer's decision, the
federations' review rules, the officers and the public directory."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from zdb.common.utc import UtcDateTime
from zdb.submissions.schemas import PreviewOut, WarningOut

__all__ = [
    "ContactIn",
    "ContactOut",
    "DecisionIn",
    "DirectoryEntryOut",
    "DirectoryOut",
    "OfficerIn",
    "OfficerMessageOut",
    "ReviewDetailOut",
    "ReviewImpactOut",
    "ReviewOut",
    "ReviewRuleIn",
    "ReviewRuleOut",
    "ReviewSubmittedOut",
]


def _printable(value: str) -> str:
    if not value.replace("\n", " ").replace("\r", " ").isprintable():
        raise ValueError("must not contain control characters (tab, NUL, ...)")
    return value.strip()


def _one_line(value: str) -> str:
    if not value.isprintable():
        raise ValueError("must not contain control characters (tab, newline, NUL, ...)")
    return value.strip()


Line = Annotated[str, AfterValidator(_one_line)]
Text = Annotated[str, AfterValidator(_printable)]
Email = Annotated[
    str,
    Field(min_length=3, max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$", examples=["referent@example.org"]),
]
ReviewState = Literal["waiting", "approved", "rejected"]


class ReviewOut(BaseModel):
    id: int = Field(examples=[3])
    state: ReviewState
    correction: bool = Field(description="a correction of a stored tournament (its approved version stays evaluated)")
    tournament_id: int | None = Field(description="the corrected tournament; a new one's once approved")
    federation: str = Field(examples=["101"])
    responsible: str = Field(description="the federation whose officer is responsible ('': the rating office)")
    responsible_officer: str | None = Field(description="the officer's name (null: the rating office)")
    acronym: str
    name: str
    end_date: date
    players: int
    games: int
    submitted_by: str
    submitted_at: UtcDateTime
    decided_by: str | None = None
    decided_at: UtcDateTime | None = None
    reason: str | None = Field(default=None, description="the officer's reason (a rejection's) or note")


class ReviewImpactOut(BaseModel):
    """What the approval would move, as far as it can be told before the recalculation."""

    ratings_changed: int = Field(description="participants whose rating the evaluation would change")
    largest_change: int | None = Field(description="the largest change of a rating, up or down")
    newcomers: int = Field(description="participants without a rating before it")
    later_tournaments: int = Field(
        description="evaluated tournaments of its participants that end on or after its end date: evaluated again"
    )


class ReviewDetailOut(ReviewOut):
    preview: PreviewOut = Field(description="the evaluation it would get now (as the referee's preview)")
    impact: ReviewImpactOut


class ReviewSubmittedOut(BaseModel):
    """The answer to a submission that waits in review (202)."""

    review: int = Field(examples=[3])
    state: Literal["waiting"] = "waiting"
    tournament_id: int | None = Field(description="the corrected tournament (null for a new one until approved)")
    responsible: str
    responsible_officer: str | None
    warnings: list[WarningOut] = Field(default_factory=list)
    announcement: str | None = None
    location: str = Field(examples=["/api/v1/reviews/3"])


class DecisionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: Text | None = Field(
        default=None, max_length=1000, description="why (required to reject: the referee reads it)"
    )


class ReviewRuleIn(BaseModel):
    """A federation's own review rule; null leaves it to the parent federation."""

    model_config = ConfigDict(extra="forbid")

    review: Literal["off", "required"] | None = Field(
        default=None, description="required: a referee's submission waits for the responsible officer"
    )
    trusted_exempt: bool | None = Field(default=None, description="trusted referees' submissions are not held")


class ReviewRuleOut(BaseModel):
    prefix: str
    own: ReviewRuleIn
    review: Literal["off", "required"]
    review_from: str | None = Field(description="the federation whose rule applies (null: the default, off)")
    trusted_exempt: bool
    trusted_exempt_from: str | None


class OfficerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Line = Field(min_length=1, max_length=200, description="shown in the public directory")
    email: Email = Field(description="where the contact form's messages go; never shown")
    token_id: int | None = Field(default=None, ge=1, description="the token with which the officer decides reviews")


class DirectoryEntryOut(BaseModel):
    """Who is responsible for a federation or a club: no address, a contact form."""

    prefix: str = Field(description="the federation (a club's: the one it belongs to)")
    name: str
    club: str | None = Field(default=None, description="the club's code, for a club's entry")
    officer: str | None = Field(description="the responsible officer's name (null: the rating office)")
    officer_of: str | None = Field(description="the federation the officer is named for (its own or one above)")


class DirectoryOut(BaseModel):
    federations: list[DirectoryEntryOut]


class ContactIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Line = Field(min_length=1, max_length=200)
    email: Email = Field(description="where the officer answers; shown to the officer only")
    subject: Line = Field(min_length=1, max_length=200)
    text: Text = Field(min_length=1, max_length=4000, description="plain text")
    federation: str | None = Field(default=None, max_length=4, description="the federation the message is about")
    club: str | None = Field(default=None, max_length=5, description="the club the message is about (or)")


class ContactOut(BaseModel):
    id: int
    to: str | None = Field(description="the officer's name (null: the rating office)")
    prefix: str


class OfficerMessageOut(BaseModel):
    id: int
    prefix: str
    club: str | None
    sender_name: str
    sender_email: str
    subject: str
    text: str
    sent_at: UtcDateTime
