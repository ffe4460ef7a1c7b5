"""What the API answers as a player's card: his record, memberships, FIDE and list entries,
every event of his time line with every figure of its evaluation, his rating at a date and in
the last published edition.

Absent values are null, never left out and never 0. The full birth date is non-public: it is
null unless the caller may see it, and ``private_fields_visible`` says which null is which.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

from zdb.common.utc import UtcDateTime
from zdb.players.schemas import MembershipOut
from zdb.tournaments.schemas import EvaluationFigures, ProvisionalOut

__all__ = ["FideOut", "HistoryEntry", "ListEntryOut", "PlayerCard", "PublishedRating", "RatingAt"]


class HistoryEntry(BaseModel):
    """One event of the player's time line: a tournament, the 2026 conversion, a start rating."""

    kind: Literal["tournament", "conversion", "start_rating"]
    date: date
    event: str = Field(description="the tournament's acronym or the conversion's name", examples=["BLZ"])
    tournament_id: int | None = Field(examples=[4])
    tournament_version: int | None = Field(examples=[1])
    tournament_name: str | None = Field(examples=["Bezirksliga 2026"])
    old_rating: int | None = Field(examples=[1729])
    old_index: int | None = Field(examples=[14])
    new_rating: int | None = Field(examples=[1733])
    new_index: int | None = Field(examples=[15])
    stored: bool | None = Field(description="tournaments: whether the result was written to the rating")
    evaluation: EvaluationFigures | None = Field(description="tournaments: every figure of the evaluation row")
    provisional: ProvisionalOut | None = Field(
        default=None, description="tournaments: why the evaluation is still provisional; null once definitive"
    )


class RatingAt(BaseModel):
    on: date = Field(description="the date asked for")
    rating: int | None = Field(examples=[1733])
    rating_index: int | None = Field(examples=[15])
    since: date | None = Field(description="date of the event that set it", examples=["2026-09-20"])
    event: str | None = Field(description="that event", examples=["BLZ"])


class PublishedRating(BaseModel):
    edition: str = Field(description="the last published edition of the rating list", examples=["2026-Q4"])
    as_of: date = Field(examples=["2026-09-30"])
    rating: int = Field(examples=[1719])
    rating_index: int = Field(examples=[14])


class FideOut(BaseModel):
    """The player in the newest edition of FIDE's list that lists him."""

    edition: date = Field(examples=["2026-11-01"])
    standard: int | None = Field(examples=[2105])
    rapid: int | None = Field(examples=[2050])
    blitz: int | None = Field(examples=[None])
    title: str | None = Field(examples=["FM"])
    women_title: str | None = Field(examples=[None])


class ListEntryOut(BaseModel):
    """How the player came in with the federation's rating list."""

    epoch: date = Field(description="the list's date: tournaments ending on or before it are inside his rating")
    last_evaluation: str | None = Field(
        description="the list's last evaluation (YYYYWW), until a tournament here replaces it", examples=["202611"]
    )


class PlayerCard(BaseModel):
    pkz: int = Field(examples=[10000042])
    surname: str = Field(examples=["Müller"])
    given_name: str = Field(examples=["Anna"])
    sex: str | None = Field(examples=["F"])
    birth_year: int | None = Field(examples=[1980])
    birth_date: date | None = Field(description="non-public", examples=[None])
    private_fields_visible: bool = Field(description="whether non-public fields are shown (null then means unknown)")
    fide_id: int | None = Field(examples=[24612345])
    nation: str | None = Field(examples=["GER"])
    guest: bool
    fide: FideOut | None = Field(description="FIDE's ratings and titles, if FIDE's list has him")
    list_entry: ListEntryOut | None = Field(description="if he came in with a rating list")
    rating: int | None = Field(examples=[1733])
    rating_index: int | None = Field(examples=[15])
    rating_changed_at: UtcDateTime | None = Field(examples=["2026-09-21T08:15:00Z"])
    memberships: list[MembershipOut] = Field(description="current and past")
    history: list[HistoryEntry] = Field(description="every event in the order of the time line")
    rating_at: RatingAt | None = Field(description="the rating on the date asked for with ?at=")
    published: PublishedRating | None = Field(
        default=None, description="the rating in the last published edition that lists the player, beside the live one"
    )
