"""What a referee sends to submit, correct or preview a tournament, and what he gets back.

Why a schema apart from ``schemas.py`` (the read side): a submission names players by the ways a
referee knows them (person number, club code + membership number, FIDE id, or name and birth
date of a newcomer) and games by start numbers, not by our keys. Types are checked here; the
rules (spec §3 time control, dates, pairings) in ``validation.py``, so that one answer lists them
all. Absent values are null.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from zdb.messages import Message
from zdb.tournaments.schemas import EvaluationFigures

__all__ = [
    "GameIn",
    "MatchedPlayerOut",
    "PlayerIn",
    "PreviewOut",
    "PreviewRowOut",
    "SubmissionOut",
    "TournamentIn",
    "WarningOut",
]


def _printable(value: str) -> str:
    # A NUL or another control character in a name is a broken file or client, never a name
    # (and PostgreSQL cannot store a NUL in a text).
    if not value.isprintable():
        raise ValueError(Message("must not contain control characters (tab, newline, NUL, ...)"))
    return value


Text = Annotated[str, AfterValidator(_printable)]


class PlayerIn(BaseModel):
    """One participant: who he is (any one of the identifications, or a newcomer's data) and his
    figures in this tournament. Identifications are tried in order: ``pkz``, ``club_code`` +
    ``member_no`` (a current membership), ``fide_id``, then name + birth date; a player found
    by none is created from ``surname``, ``given_name``, ``birth_date``, ``sex`` and ``club``."""

    model_config = ConfigDict(extra="forbid")

    pkz: int | None = Field(default=None, ge=1, le=2**63 - 1, description="the person number", examples=[10000042])
    club_code: Text | None = Field(default=None, max_length=5, description="with member_no", examples=["C0327"])
    member_no: int | None = Field(default=None, ge=0, le=2**31 - 1, examples=[17])
    fide_id: int | None = Field(default=None, ge=1, le=2**63 - 1, examples=[4600001])
    surname: Text | None = Field(default=None, max_length=100, examples=["Müller"])
    given_name: Text | None = Field(default=None, max_length=100, examples=["Anna"])
    birth_date: date | None = Field(default=None, examples=["1980-05-17"])
    sex: Literal["M", "F", "D"] | None = Field(default=None, examples=["F"])
    club: Text | None = Field(
        default=None, max_length=5, description="a newcomer's club (code): a membership is added", examples=["C0327"]
    )
    birth_year: int | None = Field(
        default=None, ge=1850, le=2200, description="for the evaluation; default: the player's", examples=[1980]
    )
    member: bool = Field(default=True, description="a member of the federation (false: a guest)")
    fide_rating: int | None = Field(default=None, ge=0, le=3500, examples=[None])


class GameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # No tournament has more rounds or boards than this; a bigger number is a typing error.
    round: int | None = Field(default=None, ge=1, le=999, examples=[1])
    board: int | None = Field(default=None, ge=1, le=9999, examples=[1])
    white: int = Field(description="start number: 1-based position in players", examples=[1])
    black: int = Field(description="start number: 1-based position in players", examples=[2])
    result: str = Field(
        description="white's score first: 1-0, 0-1, 1/2-1/2 (rated); +-, -+, --, 0-0, 1/2-0, 0-1/2 (not rated)",
        examples=["1-0"],
    )


class TournamentIn(BaseModel):
    """A finished tournament as JSON."""

    model_config = ConfigDict(extra="forbid")

    acronym: Text = Field(min_length=1, max_length=3, description="three characters", examples=["VMS"])
    name: Text = Field(default="", max_length=200, examples=["Vereinsmeisterschaft 2026"])
    federation: Text = Field(
        max_length=4, description="the organising federation (club-code prefix, in a referee's scope)", examples=["C03"]
    )
    kind: Literal["individual", "team_season"] = "individual"
    start_date: date | None = Field(default=None, examples=["2026-09-18"])
    end_date: date = Field(examples=["2026-09-20"])
    round_dates: list[date] = Field(default_factory=list, examples=[["2026-09-18", "2026-09-19", "2026-09-20"]])
    time_control: Text = Field(
        max_length=100,
        description="PGN TimeControl notation (periods ':'-separated, each 'moves/seconds+increment') or "
        "written out ('90 min + 30 s'); spec §3: at least 90 minutes (U12 youth: 60)",
        examples=["40/5400+30:1800+30"],
    )
    youth_u12: bool = Field(default=False, description="a youth tournament for U12 and younger (spec §3: 60 minutes)")
    players: list[PlayerIn] = Field(min_length=1, max_length=5000)
    games: list[GameIn] = Field(default_factory=list, max_length=200_000)


class WarningOut(BaseModel):
    """What does not refuse a submission but its referee should know: a file line the reader
    passed over, a value the person's record overrides, a fact the record learned."""

    place: str = Field(description="the field (body.players[2]) or the file's line", examples=["line 14"])
    message: str = Field(examples=["the file gives the birth year 1990; the record of 10000042 holds 1989: used"])


class MatchedPlayerOut(BaseModel):
    start_no: int = Field(examples=[1])
    pkz: int = Field(examples=[10000042])
    created: bool = Field(description="the player was not known and was created from the submitted data")


class SubmissionOut(BaseModel):
    id: int = Field(examples=[8])
    version: int = Field(examples=[1])
    status: Literal["received"] = "received"
    players: list[MatchedPlayerOut]
    warnings: list[WarningOut] = Field(default_factory=list)
    announcement: str | None = Field(
        default=None, description="the code of the announcement the tournament was matched to", examples=["2026-0001"]
    )
    impact: str = Field(
        description="where the impact of the submission's evaluation is answered (404 until it is evaluated)",
        examples=["/api/v1/tournaments/8/impact"],
    )


class PreviewRowOut(EvaluationFigures):
    start_no: int = Field(examples=[1])
    pkz: int | None = Field(description="null: a newcomer who would be created", examples=[10000042])
    name: str = Field(description="the person's record's name (a newcomer's: as submitted)", examples=["Anna Müller"])
    name_in_file: str | None = Field(
        default=None, description="the submission's spelling, where it differs from the record's", examples=[None]
    )


class PreviewOut(BaseModel):
    """The evaluation the tournament would get now, from its participants' stored states before
    its end date; nothing is stored."""

    rule_set: str = Field(examples=["wo2026"])
    rows: list[PreviewRowOut]
    warnings: list[WarningOut] = Field(default_factory=list)
