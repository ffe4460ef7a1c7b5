"""What the API answers about the federation tree and its clubs."""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = ["ClubOut", "FederationOut"]


class FederationOut(BaseModel):
    prefix: str = Field(
        description="club-code prefix of the subtree; empty for the national federation", examples=["C03"]
    )
    name: str = Field(examples=["Bezirk Musterland"])
    level: int = Field(description="0 national, 1 regional, 2 district, 3 sub-district", examples=[2])
    parent_prefix: str | None = Field(examples=["C"])


class ClubOut(BaseModel):
    code: str = Field(description="5-character club code (VKZ/ZPS)", examples=["C0327"])
    name: str = Field(examples=["SK Musterstadt 1920"])
    federation_prefix: str = Field(examples=["C03"])
    members: int = Field(description="current members, active and passive", examples=[48])
    active_members: int = Field(examples=[41])
