"""What the API answers about published editions of the rating list."""

from __future__ import annotations

import datetime

from pydantic import BaseModel, ConfigDict, Field

from zdb.common.utc import UtcDateTime

__all__ = ["EditionChange", "EditionIn", "EditionOut", "EditionRow"]


class EditionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    date: datetime.date = Field(description="the ratings after every event up to and including this day")
    name: str | None = Field(
        default=None,
        pattern=r"^[0-9A-Za-z-]{1,20}$",
        description="absent: the quarter of the date",
        examples=["2026-Q4"],
    )


class EditionOut(BaseModel):
    name: str = Field(examples=["2026-Q4"])
    as_of: datetime.date = Field(examples=["2026-10-01"])
    published_at: UtcDateTime = Field(examples=["2026-10-01T03:00:00Z"])
    published_by: str = Field(description="the label of the token that published it, or the schedule")
    players: int = Field(description="rows of the edition", examples=[48213])


class EditionRow(BaseModel):
    pkz: int = Field(examples=[10000001])
    name: str = Field(examples=["Anna Müller"])
    rating: int = Field(examples=[1733])
    rating_index: int = Field(examples=[15])


class EditionChange(BaseModel):
    pkz: int
    name: str
    old_rating: int | None = Field(description="in the previous edition; null: not listed there")
    old_index: int | None
    new_rating: int | None = Field(description="in this edition; null: not listed any more")
    new_index: int | None
