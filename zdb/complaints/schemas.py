"""What the API takes and answers about complaints.

The complainant's answer (``ComplaintFollowed``, read through the private link) and the staff's
(``ComplaintOut``) differ: the e-mail address, the complainant's person number and who in the
office wrote a note are in the staff's only.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from zdb.common.utc import UtcDateTime
from zdb.tournaments.schemas import ProvisionalOut

__all__ = [
    "ComplaintFiled",
    "ComplaintFollowed",
    "ComplaintIn",
    "ComplaintOut",
    "DecisionIn",
    "LinkOut",
    "NoteOut",
    "ProvisionalOut",
]

#: the most characters of a complaint's text or a note
MAX_TEXT = 4000
_EMAIL = r"^[^@\s<>\"]{1,64}@[^@\s<>\"]+\.[^@\s<>\"]{2,}$"

State = Literal["new", "in_progress", "resolved", "dismissed"]


def _plain(value: str) -> str:
    """Plain text: lines and tabs, no other control characters; never markup to be rendered
    (the pages escape it)."""
    if any(not c.isprintable() and c not in "\n\t" for c in value.replace("\r\n", "\n")):
        raise ValueError("must be plain text: no control characters other than line breaks and tabs")
    value = value.replace("\r\n", "\n").strip()
    if not value:
        raise ValueError("must not be empty")
    return value


PlainText = Annotated[str, Field(min_length=1, max_length=MAX_TEXT), AfterValidator(_plain)]


class ComplaintIn(BaseModel):
    """A complaint about an evaluation (``tournament``, and the ``person`` whose evaluation it is,
    if one) or about a person's record (``person``). Without a token the complainant is a player:
    his person number (``pkz``) and an e-mail address to answer to are needed."""

    model_config = ConfigDict(extra="forbid")

    subject: Literal["evaluation", "record"]
    tournament: int | None = Field(default=None, ge=1, description="the tournament (an evaluation)", examples=[4])
    person: int | None = Field(
        default=None, ge=1, description="the person whose evaluation or record it is", examples=[10000042]
    )
    pkz: int | None = Field(default=None, ge=1, description="the complainant's person number (a player)")
    email: str | None = Field(
        default=None, max_length=254, pattern=_EMAIL, description="where the answer goes; never shown publicly"
    )
    text: PlainText = Field(description=f"plain text, at most {MAX_TEXT} characters")


class ComplaintFiled(BaseModel):
    id: int = Field(examples=[1])
    state: State
    routed_to: Literal["referee", "officer", "office"]
    follow: str = Field(description="the complainant's private link (shown once; keep it)")
    late: bool = Field(description="filed by the office after the complaint period had ended")
    period_until: date | None = Field(description="the last day of the complaint period (null: not yet published)")


class NoteOut(BaseModel):
    at: UtcDateTime
    state: State | None = Field(description="the state the note set; null: a note alone")
    text: str | None
    by: str | None = Field(default=None, description="who wrote it (staff only)")


class LinkOut(BaseModel):
    kind: Literal["correction", "record"]
    target: str = Field(examples=["tournament 4 version 2"])
    at: UtcDateTime


class ComplaintFollowed(BaseModel):
    """What the complainant reads through his private link."""

    id: int
    subject: Literal["evaluation", "record"]
    tournament: int | None
    person: int | None
    filed_at: UtcDateTime
    state: State
    routed_to: Literal["referee", "officer", "office"]
    text: str
    notes: list[NoteOut]
    links: list[LinkOut]


class ComplaintOut(ComplaintFollowed):
    """What the staff it was routed to read: who filed it and how to answer."""

    filer: Literal["player", "club", "referee", "office"]
    filer_pkz: int | None
    email: str | None = Field(description="the complainant's address to answer to (never public)")
    filer_club: str | None
    filed_by: str
    routed_scope: str | None
    late: bool
    edition: str | None = Field(description="the edition whose complaint period it fell in")
    revision: int = Field(description="send it back with a decision: a decision made meanwhile is a 409")
    changed_at: datetime


class DecisionIn(BaseModel):
    """A state and/or a note; ``revision`` is the one read (two officers at once: one wins)."""

    model_config = ConfigDict(extra="forbid")

    revision: int = Field(ge=0)
    state: State | None = None
    note: PlainText | None = None
