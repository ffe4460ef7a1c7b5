"""The TRF reader's frozen value types: what ``parse_trf`` returns.

Column numbers in the docstrings are 1-based, as in the FIDE documents (see the package docstring
for the sources).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from enum import Enum, StrEnum
from types import MappingProxyType

from zdb.messages import Message
from zdb.rating import ResultCode

__all__ = [
    "ByeKind",
    "Severity",
    "TrfBye",
    "TrfByeRecord",
    "TrfDocument",
    "TrfGame",
    "TrfNationalRecord",
    "TrfPlayer",
    "TrfProblem",
    "TrfRecord",
    "TrfRoundCell",
    "TrfTeam",
    "TrfTeamBye",
    "TrfTeamForfeit",
]


class Severity(StrEnum):
    """``error``: the data is wrong or cannot be read; ``warning``: odd, but read in a stated way."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class TrfProblem:
    """One finding, with the 1-based line number (``None`` for the document as a whole).

    A binary file has no lines (a Swiss-Chess SWT, ``zdb.formats.swt``): its problems name the
    ``record`` instead ("player 7", "team 2", "general data") and leave ``line`` ``None``.
    """

    line: int | None
    severity: Severity
    message: str
    field: str | None = None  # "round 3", "birth date", "042", ...
    column: int | None = None  # 1-based, counted in characters
    #: ``message`` as template and values, for the pages to translate
    text: Message | None = dataclasses.field(default=None, compare=False, repr=False)
    record: str | None = None  # where in a file without lines: "player 7", "team 2", "general data"

    @property
    def place(self) -> str:
        """Where the problem is: "line 14", the record ("player 7") of a file without lines, or "file"."""
        if self.line is not None:
            return f"line {self.line}"
        return self.record or "file"

    def __str__(self) -> str:
        where = []
        if self.record is not None:
            where.append(self.record)
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        if self.field:
            where.append(self.field)
        prefix = ", ".join(where) if where else "file"
        return f"{prefix}: {self.message}"


@dataclass(frozen=True, slots=True)
class TrfRoundCell:
    """One round of a ``001`` line (TRF16/TRF26 player section, columns 92-99 for round 1, +10 per round).

    ``colour`` is ``"w"``, ``"b"``, ``"-"`` (bye / not paired) or ``None`` (blank); ``result`` is the
    upper-cased result code (``1 0 = + - W D L H F U Z``) or ``None`` (blank).
    """

    round: int
    opponent: int | None  # None for 0000 or blank
    colour: str | None
    result: str | None
    column: int  # where the cell starts
    text: str = ""  # the cell as written, trailing blanks removed
    readable: bool = True  # False: the cell could not be read (an error says why)

    @property
    def blank(self) -> bool:
        """Nothing written at all: the player was not in this round (or the round is still open)."""
        return not self.text.strip()

    @property
    def paired(self) -> bool:
        return self.opponent is not None


@dataclass(frozen=True, slots=True)
class TrfNationalRecord:
    """A National Rating Support line (TRF26 "NRS records": the ``001`` static layout behind a
    federation code). For ``GER`` the rating is the DWZ; ``club_code`` (ZPS), ``member_no`` and
    ``person_no`` are read from the national number (columns 58-68), see ``players.py``."""

    line: int
    federation: str
    start_no: int
    sex: str | None
    classification: str | None
    name: str
    rating: int | None
    origin: str | None
    national_id: str | None
    birth_text: str
    birth_year: int | None
    birth_date: date | None
    club_code: str | None = None
    member_no: str | None = None
    person_no: str | None = None

    @property
    def dwz(self) -> int | None:
        """The DWZ: the national rating of a ``GER`` line."""
        return self.rating if self.federation == "GER" else None


@dataclass(frozen=True, slots=True)
class TrfPlayer:
    """A ``001`` line (TRF16 / TRF26 "Player Section")."""

    line: int
    start_no: int
    sex: str | None  # "m", "w" or None
    title: str | None  # GM, IM, WGM, FM, WIM, CM, WFM, WCM (single letters expanded) or as written
    name: str
    rating: int | None  # FIDE rating; 0 and blank are None
    federation: str | None
    fide_id: int | None  # 0, blank and "-----" are None
    birth_text: str
    birth_year: int | None
    birth_date: date | None  # only when day and month are known
    points: float | None
    rank: int | None
    cells: tuple[TrfRoundCell, ...]  # one per round of the document, blank cells included
    national: tuple[TrfNationalRecord, ...] = ()
    record: str | None = None  # a file without lines (SWT): "player 7"; ``line`` is then 0

    @property
    def place(self) -> str:
        """Where the player is written: "line 14", or the record ("player 7") of a file without lines."""
        return self.record or f"line {self.line}"

    def cell(self, round_no: int) -> TrfRoundCell | None:
        if 1 <= round_no <= len(self.cells):
            return self.cells[round_no - 1]
        return None


@dataclass(frozen=True, slots=True)
class TrfTeam:
    """A team from ``310`` (TRF26 "Team Section") or, when there is no ``310``, from ``013`` (TRF16)."""

    line: int
    number: int  # 310 team pairing number; for 013 the order of the lines
    name: str
    members: tuple[int, ...]  # start numbers, board order
    source: str  # "310" or "013"
    nickname: str | None = None
    strength: float | None = None
    match_points: float | None = None
    game_points: float | None = None
    rank: int | None = None


@dataclass(frozen=True, slots=True)
class TrfTeamForfeit:
    """A ``330`` record: a whole match forfeited (``+-`` white team wins, ``-+`` black, ``--`` both lose)."""

    line: int
    kind: str
    round: int
    white_team: int
    black_team: int


@dataclass(frozen=True, slots=True)
class TrfTeamBye:
    """One round of a ``320`` record: the team given the pairing-allocated bye."""

    line: int
    round: int
    team: int
    match_points: float | None
    game_points: float | None


@dataclass(frozen=True, slots=True)
class TrfByeRecord:
    """A ``240`` record: ``F``/``H``/``Z`` bye in one round for the listed players (or teams)."""

    line: int
    kind: str
    round: int
    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TrfRecord:
    """Any other line kept as written (``250``, ``260``, ``299``, ``300``, ``801``, ``802``, unknown codes)."""

    line: int
    code: str
    text: str


class ByeKind(Enum):
    """What a cell without an opponent means (TRF26 result codes)."""

    HALF_POINT = "H"  # half-point bye
    FULL_POINT = "F"  # full-point bye
    PAIRING_ALLOCATED = "U"  # pairing-allocated bye
    PAIRING_PLUS = "+"  # "0000 - +": the pairing bye of older tools; in team events a board left empty
    ZERO_POINT = "Z"  # zero-point bye: Z, or "-" colour with a blank result
    NOT_PAIRED = "-"  # "0000 - -" / "       -": forfeit loss without opponent, withdrawn, board not played
    ABSENT = ""  # a completely blank cell inside the rounds of the document


_BYE_POINTS = {
    ByeKind.HALF_POINT: 0.5,
    ByeKind.FULL_POINT: 1.0,
    ByeKind.PAIRING_ALLOCATED: 1.0,
    ByeKind.PAIRING_PLUS: 1.0,
    ByeKind.ZERO_POINT: 0.0,
    ByeKind.NOT_PAIRED: 0.0,
    ByeKind.ABSENT: 0.0,
}


@dataclass(frozen=True, slots=True)
class TrfBye:
    """A round in which a player had no opponent."""

    round: int
    start_no: int
    kind: ByeKind
    code: str | None  # the result code as written
    line: int

    @property
    def points(self) -> float:
        """Default TRF points (TRF26 record 162 defaults)."""
        return _BYE_POINTS[self.kind]


@dataclass(frozen=True, slots=True)
class TrfGame:
    """One pairing, once: white and black by start number, the result as an engine code.

    ``rated`` is False for forfeits and for the TRF codes W/D/L (games that lasted less than one
    move). The engine has no unrated draw, so ``D``/``D`` keeps ``1/2-1/2`` with ``rated=False``:
    callers must honour ``rated``.
    """

    round: int
    white: int
    black: int
    result: ResultCode
    rated: bool
    codes: tuple[str, str]  # TRF result codes of white and black
    colours_known: bool = True  # False when neither side gave a colour (white = lower start number)

    def __iter__(self) -> Iterator[int | str]:
        """Unpacks as ``(round, white, black, result code)``, the code as a string such as ``"1-0"``."""
        return iter((self.round, self.white, self.black, self.result.value))


def _empty_header() -> Mapping[str, tuple[str, ...]]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class TrfDocument:
    """A parsed TRF file: the data as far as it could be read, and every problem found.

    A Swiss-Chess SWT is read into the same document (``zdb.formats.swt``, ``file_format`` "SWT"),
    so that it takes the same way through the intake and the standings.
    """

    encoding: str | None  # "utf-8", "utf-8-sig", "utf-16", "cp1252", "iso-8859-1"; None for str input
    line_endings: str  # "LF", "CRLF", "CR", "mixed" or "none"
    header: Mapping[str, tuple[str, ...]] = field(default_factory=_empty_header)  # code -> values in order
    name: str | None = None  # 012
    city: str | None = None  # 022
    federation: str | None = None  # 032
    start_date: date | None = None  # 042
    end_date: date | None = None  # 052, else the last round date of 132
    end_date_source: str | None = None  # "052", "132" or None
    round_dates: tuple[date | None, ...] = ()  # 132, per round
    declared_rounds: int | None = None  # 142, else XXR
    rounds: int = 0  # rounds present in the player lines
    chief_arbiter: str | None = None  # 102
    deputy_arbiters: tuple[str, ...] = ()  # 112
    time_control: str | None = None  # 122 as written
    time_control_code: str | None = None  # 222 (TRF26 encoded time control)
    tournament_type: str | None = None  # 092
    players: tuple[TrfPlayer, ...] = ()
    national_records: tuple[TrfNationalRecord, ...] = ()
    teams: tuple[TrfTeam, ...] = ()
    team_forfeits: tuple[TrfTeamForfeit, ...] = ()
    team_byes: tuple[TrfTeamBye, ...] = ()
    bye_records: tuple[TrfByeRecord, ...] = ()
    extensions: Mapping[str, tuple[str, ...]] = field(default_factory=_empty_header)  # XXR, XXC, XXA, DAT...
    records: tuple[TrfRecord, ...] = ()
    problems: tuple[TrfProblem, ...] = ()
    file_format: str = "TRF"  # "TRF", or "SWT" for a Swiss-Chess file read by ``zdb.formats.swt``

    @property
    def errors(self) -> tuple[TrfProblem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[TrfProblem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.WARNING)

    @property
    def ok(self) -> bool:
        """True when there is no error (warnings allowed)."""
        return not self.errors

    def player(self, start_no: int) -> TrfPlayer | None:
        for player in self.players:
            if player.start_no == start_no:
                return player
        return None

    def team_of(self, start_no: int) -> TrfTeam | None:
        for team in self.teams:
            if start_no in team.members:
                return team
        return None
