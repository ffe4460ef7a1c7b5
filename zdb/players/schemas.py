"""What the API answers about players in search results, and a person's memberships.

Absent values are null, never left out and never 0. The player card's shapes, which carry his
history and evaluations, are on the ratings' read side (``zdb.ratings.card_schemas``).
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["CurrentClub", "EntryCheckIn", "EntryCheckedOut", "EntryIn", "MembershipOut", "PlayerSummary"]


class CurrentClub(BaseModel):
    club_code: str = Field(examples=["C0327"])
    club_name: str = Field(examples=["SK Musterstadt 1920"])
    member_no: int | None = Field(examples=[17])
    status: Literal["active", "passive"]


class MembershipOut(CurrentClub):
    valid_from: date = Field(examples=["2015-01-01"])
    valid_until: date | None = Field(description="null: current", examples=[None])


class PlayerSummary(BaseModel):
    pkz: int = Field(description="person number (PKZ)", examples=[10000042])
    surname: str = Field(examples=["Müller"])
    given_name: str = Field(examples=["Anna"])
    sex: str | None = Field(examples=["F"])
    birth_year: int | None = Field(examples=[1980])
    fide_id: int | None = Field(examples=[24612345])
    nation: str | None = Field(examples=["GER"])
    guest: bool
    rating: int | None = Field(examples=[1733])
    rating_index: int | None = Field(examples=[15])
    clubs: list[CurrentClub] = Field(description="current memberships")


class EntryIn(BaseModel):
    """One entry of a tournament's entry list: a person number, or club code + membership number,
    or name + birth date."""

    model_config = ConfigDict(extra="forbid")

    pkz: int | None = Field(default=None, ge=1, examples=[10000042])
    club: str | None = Field(default=None, min_length=5, max_length=5, examples=["C0327"])
    member_no: int | None = Field(default=None, ge=0, le=2**31 - 1, examples=[17])
    surname: str | None = Field(default=None, min_length=1, max_length=100, examples=["Müller"])
    given_name: str | None = Field(default=None, max_length=100, examples=["Anna"])
    birth_date: date | None = Field(default=None, examples=["1980-05-17"])


class EntryCheckIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    start_date: date = Field(description="the tournament's first day: membership is checked on it")
    entries: list[EntryIn] = Field(min_length=1, max_length=1000)


class EntryCheckedOut(BaseModel):
    entry: int = Field(description="the entry's place in the list, from 1", examples=[1])
    known: bool
    pkz: int | None = Field(examples=[10000042])
    member: bool | None = Field(description="a member of a club on the start date; false: a guest there")
    club: str | None = Field(description="the club he is a member of on the start date", examples=["C0327"])
    rated: bool | None
    dwz: int | None = Field(description="his current DWZ", examples=[1733])
    dwz_index: int | None = Field(examples=[15])
    candidates: list[int] = Field(description="ambiguous: the person numbers that fit")
    note: str | None = Field(description="why unknown or ambiguous; a merged number", examples=[None])
