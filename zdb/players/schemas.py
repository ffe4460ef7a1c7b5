"""What the API answers about players in search results, and a person's memberships.

Absent values are null, never left out and never 0. The player card's shapes, which carry his
history and evaluations, are on the ratings' read side (``zdb.ratings.card_schemas``).
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

__all__ = ["CurrentClub", "MembershipOut", "PlayerSummary"]


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
