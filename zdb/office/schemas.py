"""What the rating office sends and is answered when it changes the record."""

from __future__ import annotations

import datetime
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from zdb.auth.schemas import AuditEntryOut

__all__ = [
    "AuditEntryWithActor",
    "ClubIn",
    "ClubPatch",
    "DissolutionIn",
    "DissolutionOut",
    "FederationIn",
    "FederationPatch",
    "MembershipIn",
    "MembershipOut",
    "MembershipPatch",
    "MergeIn",
    "MergeOut",
    "PersonIn",
    "PersonOut",
    "PersonPatch",
    "PersonWarningOut",
    "RecalculationFrom",
    "TransferIn",
    "TransferOut",
]

_STRICT = ConfigDict(extra="forbid")


class RecalculationFrom(BaseModel):
    end_date: date = Field(description="the end date of the first tournament redone", examples=["2025-03-09"])
    tournament_id: int | None = Field(description="null: from the start of that day", examples=[17])


class _PersonFields(BaseModel):
    model_config = _STRICT

    given_name: str | None = Field(default=None, max_length=100, examples=["Anna"])
    birth_year: int | None = Field(default=None, ge=1850, le=2200, examples=[1980])
    birth_date: date | None = Field(default=None, description="never public; sets the birth year", examples=[None])
    sex: Literal["M", "F", "D"] | None = Field(default=None, examples=["F"])
    fide_id: int | None = Field(default=None, ge=1, le=2**63 - 1, examples=[4600001])
    nation: str | None = Field(default=None, min_length=3, max_length=3, examples=["GER"])


_OBJECTION = "objected to publication: the name is withheld from public pages and lists; the rating still counts"


class PersonIn(_PersonFields):
    surname: str = Field(min_length=1, max_length=100, examples=["Müller"])
    guest: bool = Field(default=False, description="never a member of a federation club (WO 3.4.3)")
    objects_to_publication: bool = Field(default=False, description=_OBJECTION)
    allow_duplicate: bool = Field(
        default=False,
        description="enter the person although a record has the same name and birth date (else 409 naming it); audited",
    )


class PersonPatch(_PersonFields):
    """Only the fields sent are changed; ``null`` clears a field that may be empty."""

    surname: str | None = Field(default=None, min_length=1, max_length=100, examples=["Müller"])
    guest: bool | None = Field(default=None, description="never a member of a federation club (WO 3.4.3)")
    objects_to_publication: bool | None = Field(default=None, description=_OBJECTION)


class PersonWarningOut(BaseModel):
    """What does not refuse a change of the record but the office should know."""

    place: str = Field(examples=["body"])
    message: str = Field(
        examples=[
            "player 10001001 (Ida Kranz, born 2012) has the same or a similar name and the same birth year: if "
            "it is the same person, merge the records"
        ]
    )


class PersonOut(BaseModel):
    pkz: int = Field(examples=[10000001])
    surname: str
    given_name: str
    birth_year: int | None
    birth_date: date | None
    sex: str | None
    fide_id: int | None
    nation: str | None
    guest: bool
    objects_to_publication: bool
    recalculation_from: RecalculationFrom | None = Field(
        description="the first tournament the recalculation redoes because of this change; null: no evaluation changes"
    )
    warnings: list[PersonWarningOut] = Field(
        default_factory=list,
        description="records that may be the same person: the same or a similar name and the same birth year",
    )


class MembershipIn(BaseModel):
    model_config = _STRICT

    club_code: str = Field(min_length=5, max_length=5, examples=["C0327"])
    member_no: int | None = Field(default=None, ge=1, le=2**31 - 1, examples=[12])
    status: Literal["active", "passive"] = "active"
    valid_from: date = Field(examples=["2026-07-01"])


class MembershipPatch(BaseModel):
    """A new number or status, a corrected first day, or the leave: ``valid_until``, the last day."""

    model_config = _STRICT

    member_no: int | None = Field(default=None, ge=1, le=2**31 - 1)
    status: Literal["active", "passive"] | None = None
    valid_from: date | None = None
    valid_until: date | None = Field(default=None, description="the last day; null: current", examples=["2026-06-30"])


class MembershipOut(BaseModel):
    id: int = Field(examples=[301])
    pkz: int
    club_code: str
    member_no: int | None
    status: str
    valid_from: date
    valid_until: date | None = Field(description="the last day; null: current")
    recalculation_from: RecalculationFrom | None = Field(
        default=None, description="a guest who joins is a member from that day on: the first tournament redone"
    )


class TransferIn(BaseModel):
    model_config = _STRICT

    from_club: str = Field(min_length=5, max_length=5, examples=["C0327"])
    to_club: str = Field(min_length=5, max_length=5, examples=["C0101"])
    date: datetime.date = Field(description="the first day in the new club; the old membership ends the day before")
    member_no: int | None = Field(default=None, ge=1, le=2**31 - 1, description="in the new club")
    status: Literal["active", "passive"] = "active"


class MergeIn(BaseModel):
    model_config = _STRICT

    absorb: int = Field(ge=1, le=2**63 - 1, description="the person number that is merged into this one")


class MergeOut(BaseModel):
    survivor: int
    absorbed: int = Field(description="answers with a redirect to the survivor from now on")
    participations_moved: int
    memberships_moved: int
    recalculation_from: RecalculationFrom | None = Field(description="the first tournament the recalculation redoes")


class TransferOut(BaseModel):
    ended: MembershipOut
    joined: MembershipOut


class ClubIn(BaseModel):
    model_config = _STRICT

    code: str = Field(pattern=r"^[0-9A-Za-z]{5}$", examples=["C0330"])
    name: str = Field(min_length=1, max_length=200, examples=["SC Neugründung"])
    federation_prefix: str = Field(max_length=4, examples=["C03"])


class ClubPatch(BaseModel):
    model_config = _STRICT

    name: str | None = Field(default=None, min_length=1, max_length=200)
    federation_prefix: str | None = Field(
        default=None, max_length=4, description="a move; the club's code must begin with it"
    )


class FederationIn(BaseModel):
    model_config = _STRICT

    prefix: str = Field(pattern=r"^[0-9A-Za-z]{1,4}$", examples=["C04"])
    name: str = Field(min_length=1, max_length=200, examples=["Bezirk C04"])
    parent_prefix: str = Field(max_length=4, examples=["C"])


class FederationPatch(BaseModel):
    model_config = _STRICT

    name: str | None = Field(default=None, min_length=1, max_length=200)
    parent_prefix: str | None = Field(default=None, max_length=4, description="a move; must begin the prefix")


class DissolutionIn(BaseModel):
    model_config = _STRICT

    date: datetime.date = Field(description="the last day; the members' current memberships end on it")


class DissolutionOut(BaseModel):
    dissolved_on: date
    memberships_ended: int


class AuditEntryWithActor(AuditEntryOut):
    actor_label: str | None = Field(
        description="who: the label of the token; null: a command on the server", examples=["Anna, Geschäftsstelle"]
    )
