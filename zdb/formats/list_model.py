"""The data read from a federation's rating-list ZIP, as a later database sync needs it.

A federation moving to ZDB brings its rating list of the day and later lists are synced. The
readers (``zdb.formats.list_reader``) turn every layout in use into these frozen values, the
writers (``zdb.formats.list_writer``) turn them back into the same bytes; no database is
involved. Every value keeps the line it was read from, and every problem names its file, line
and column, so that an import can show the federation exactly what to fix.

Codes are kept as written (``C0327``, ``C03``, ``000``); values the file leaves empty are
``None`` (a rating, FIDE id or birth year written ``0`` means "none" too, as in the DSB's files).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from zdb.formats.dsb_files import Codec

__all__ = [
    "PERSON_FIELDS",
    "FileFormat",
    "ListClub",
    "ListFederation",
    "ListMember",
    "ListPerson",
    "Problem",
    "RatingList",
    "YearWeek",
]


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong in a file: ``line`` counts from 1 (0: the file as a whole) and
    ``column`` is the header name of the field (empty: the line or file as a whole)."""

    file: str
    line: int
    column: str
    message: str
    #: the message as an English ``str.format`` template and its values, so that a caller can
    #: put it into another language (this library knows none); empty: ``message`` as it is
    template: str = field(default="", compare=False)
    params: tuple[tuple[str, str | int], ...] = field(default=(), compare=False)

    @classmethod
    def of(cls, file: str, line: int, column: str, template: str, /, **params: str | int) -> Problem:
        """The problem whose message is ``template`` filled in with ``params``."""
        return cls(file, line, column, template.format(**params), template, tuple(params.items()))

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.column}: {self.message}" if self.column else f"{where}: {self.message}"


@dataclass(frozen=True, order=True, slots=True)
class YearWeek:
    """An ISO year and week, the DSB's ``YYYYWW`` for the end of the last evaluated tournament."""

    year: int
    week: int

    def __post_init__(self) -> None:
        date.fromisocalendar(self.year, self.week, 1)  # raises ValueError for a week the year lacks

    def __str__(self) -> str:
        return f"{self.year}{self.week:02d}"

    @classmethod
    def of(cls, day: date) -> YearWeek:
        year, week, _ = day.isocalendar()
        return cls(year, week)

    def monday(self) -> date:
        return date.fromisocalendar(self.year, self.week, 1)


#: the fields of a ``spieler.csv`` line that belong to the person, not to the membership
PERSON_FIELDS = (
    "surname",
    "given_name",
    "sex",
    "birth_year",
    "last_evaluation",
    "rating",
    "rating_index",
    "fide_rating",
    "fide_title",
    "fide_id",
    "fide_nation",
    "fide_women_title",
    "fide_rapid",
    "fide_blitz",
    "title",
)


@dataclass(frozen=True, slots=True)
class ListMember:
    """One line of ``spieler.csv``: one membership of a person in a club, with the person's
    public rating data. ``person_id`` is the portal's person id (``NU…``) or the DeWIS person
    number (``ID``); the older DeWIS layout has none. ``sex`` is ``M``, ``F`` or ``D`` (the file's
    ``W`` is ``F``); ``status`` is ``active`` or ``passive``."""

    person_id: str | None
    club_code: str
    member_no: int | None
    status: str
    surname: str
    given_name: str
    sex: str | None = None
    eligibility: str | None = None
    birth_year: int | None = None
    last_evaluation: YearWeek | None = None
    rating: int | None = None
    rating_index: int | None = None
    fide_rating: int | None = None
    fide_title: str | None = None
    fide_id: int | None = None
    fide_nation: str | None = None
    fide_women_title: str | None = None
    fide_rapid: int | None = None
    fide_blitz: int | None = None
    title: str | None = None
    line: int = field(default=0, compare=False)

    def person_data(self) -> tuple[object, ...]:
        """The values that belong to the person, not to the membership (``PERSON_FIELDS``):
        equal on every line of one person in a sound file."""
        return tuple(getattr(self, name) for name in PERSON_FIELDS)


@dataclass(frozen=True, slots=True)
class ListPerson:
    """A person of the list with all memberships; ``member`` is the line whose person data
    count. The list describes a person once per membership, and his main (active) membership is
    the one the federation keeps up to date: the line that counts is his first active
    membership, else his most recent line (the newest "Letzte Auswertung", the first of equals).
    Where another line says something else of him, the line that counts wins."""

    person_id: str
    member: ListMember
    memberships: tuple[ListMember, ...]


@dataclass(frozen=True, slots=True)
class ListClub:
    """One line of ``vereine.csv``. ``state`` is the state federation (``LV``), ``parent`` the
    code of the federation the club belongs to. The portal lists the federations here too."""

    code: str
    state: str
    parent: str
    name: str
    line: int = field(default=0, compare=False)

    @property
    def is_federation(self) -> bool:
        """A federation's line in the portal's club file: its code ends in ``00``."""
        return self.code.endswith("00")


@dataclass(frozen=True, slots=True)
class ListFederation:
    """One line of ``verbaende.csv``; ``parent`` is empty for the root (``000``)."""

    code: str
    state: str
    parent: str
    name: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class FileFormat:
    """How one file of the ZIP was written, so that it can be written again the same way:
    its layout (``zdb.formats.list_layouts``), the known columns in their order, encoding,
    byte-order mark and line end."""

    name: str
    layout: str
    columns: tuple[str, ...]
    codec: Codec
    bom: bool = False
    newline: str = "\n"


@dataclass(frozen=True, slots=True)
class RatingList:
    """A read rating-list ZIP. Lines with a problem are not among the values; ``problems`` says
    why. ``people`` groups the memberships of each person id (layouts with an id only).

    Federation codes may occur twice in ``verbaende.csv`` (the DSB's own files repeat some
    district numbers): every line is kept, so that the file can be written again; ``federation``
    answers the first, and a repeat that differs from it in state, parent or name is a problem."""

    members: tuple[ListMember, ...]
    clubs: tuple[ListClub, ...]
    federations: tuple[ListFederation, ...]
    people: tuple[ListPerson, ...]
    problems: tuple[Problem, ...]
    formats: tuple[FileFormat, ...]
    stamp: datetime | None = None

    def federation(self, code: str) -> ListFederation | None:
        return next((f for f in self.federations if f.code == code), None)

    def format_of(self, name: str) -> FileFormat | None:
        return next((f for f in self.formats if f.name == name), None)
