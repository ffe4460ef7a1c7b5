"""Reads a federation's rating-list ZIP in every layout in use into ``zdb.formats.list_model``.

Pure: it takes the ZIP's bytes (or one file's bytes) and returns frozen values, so an import or
sync can run it anywhere and test it without a database. Columns are matched by header name
(``zdb.formats.list_layouts``), the encoding is stated or detected (``zdb.formats.list_text``).

What is a problem, and what happens then:

- a file missing from the ZIP, a missing required column (one problem each, naming it), an
  undecodable byte: the file gives no values;
- a line with another number of fields than the header, or a bad value (line and column
  named): that line gives no value, the other lines are read;
- CSV the ``csv`` module cannot read (a field beyond its size limit): the reading of that file
  stops at that line;
- a second active membership, a federation code repeated with other values: the lines are
  kept, the problem says which line differs from which.

The same person on several lines (one per membership) with different person data is no problem
of the file: the lines are kept and the line that counts (``ListPerson.member``) gives his
data; an import says, as a warning, what the other lines said (``zdb.lists.sync_plan``).

Unknown columns are ignored; empty lines are skipped. ``Status`` ``A`` or empty is active (the
older DeWIS files leave active members blank), ``P`` passive; ``Geschlecht`` ``W`` (or ``F``) is
``F``. A rating, FIDE id or birth year of ``0`` is none. ``Letzte Auswertung`` is ``YYYYWW``; a
date (``2026-03-14`` or ``14.03.2026``) is taken as its ISO week.
"""

from __future__ import annotations

import _csv
import csv
import io
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime

from zdb.formats.dsb_files import Codec
from zdb.formats.list_layouts import NAME_COLUMNS, Layout, layouts_of, normalised
from zdb.formats.list_model import (
    FileFormat,
    ListClub,
    ListFederation,
    ListMember,
    ListPerson,
    Problem,
    RatingList,
    YearWeek,
)
from zdb.formats.list_text import decode

__all__ = ["FILES", "read_rating_list", "read_spieler", "read_verbaende", "read_vereine"]

FILES = ("spieler.csv", "vereine.csv", "verbaende.csv")
_DIGITS = re.compile(r"[0-9]+")
_CODE = re.compile(r"[0-9A-Za-z]+")
_GERMAN_DATE = re.compile(r"([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})")


class _BadValueError(ValueError):
    """A value that cannot be read; its text is the problem's message."""


@dataclass(frozen=True, slots=True)
class _Table:
    layout: Layout
    format: FileFormat
    headers: dict[str, str]  # value key -> header name as the layout spells it
    rows: Iterator[tuple[int, dict[str, str]]]


def _choose(header: list[str], file: str) -> Layout | None:
    names = {normalised(name) for name in header}
    scored = [(sum(normalised(n) in names for n in layout.header), layout) for layout in layouts_of(file)]
    best, chosen = max(scored, key=lambda pair: pair[0])  # the first layout wins a tie
    return chosen if best else None


def _missing(layout: Layout, headers: dict[str, str]) -> list[str]:
    present = set(headers.values())
    missing = [name for name in layout.header if name in layout.required and name not in present]
    keys = {key for _, key in layout.columns}
    if "full_name" in keys and "full_name" not in headers and not {"surname", "given_name"} <= headers.keys():
        spelled = {key: name for name, key in layout.columns}
        missing.append(spelled["full_name"])
    return missing


def _table(data: bytes, file: str, codec: Codec | None, problems: list[Problem]) -> _Table | None:
    try:
        text, codec, bom = decode(data, codec)
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        problems.append(Problem(file, line, "", f"not {codec or error.encoding}: byte 0x{data[error.start]:02X}"))
        return None
    first_end = text.find("\n")
    newline = "\r\n" if first_end > 0 and text[first_end - 1] == "\r" else "\n"
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
    except csv.Error as error:
        problems.append(Problem(file, 1, "", f"unreadable CSV: {error}"))
        return None
    if header is None:
        problems.append(Problem(file, 0, "", "empty file"))
        return None
    layout = _choose(header, file)
    if layout is None:
        problems.append(Problem(file, 1, "", f"no known column in the header ({', '.join(header)})"))
        return None
    spelled = {key: name for name, key in layout.columns}
    positions: dict[str, int] = {}
    headers: dict[str, str] = {}
    for position, name in enumerate(header):
        key = layout.key_of(name)
        if key is None:
            continue
        if key in positions:
            problems.append(Problem(file, 1, name.strip(), "column named twice; the first one is read"))
            continue
        positions[key] = position
        headers[key] = spelled[key]
    missing = _missing(layout, headers)
    for name in missing:
        problems.append(Problem(file, 1, name, "required column missing"))
    if missing:
        return None
    columns = tuple(headers[key] for key in sorted(positions, key=positions.__getitem__))
    fmt = FileFormat(file, layout.name, columns, codec, bom, newline)
    return _Table(layout, fmt, headers, _rows(reader, len(header), positions, file, problems))


def _rows(
    reader: _csv.Reader, width: int, positions: dict[str, int], file: str, problems: list[Problem]
) -> Iterator[tuple[int, dict[str, str]]]:
    start = reader.line_num + 1
    while True:
        try:
            row = next(reader, None)
        except csv.Error as error:
            problems.append(Problem(file, start, "", f"unreadable CSV: {error}"))
            return
        if row is None:
            return
        line, start = start, reader.line_num + 1
        if not any(value.strip() for value in row):
            continue
        if len(row) != width:
            problems.append(Problem(file, line, "", f"{len(row)} fields, the header has {width}"))
            continue
        yield line, {key: row[position].strip() for key, position in positions.items()}


# values ---------------------------------------------------------------------------------------


def _optional(text: str) -> str | None:
    return text or None


def _number(text: str) -> int | None:
    """A count or code number; empty is none."""
    if not text:
        return None
    if not _DIGITS.fullmatch(text):
        raise _BadValueError(f"not a number: {text!r}")
    return int(text)


def _positive(text: str) -> int | None:
    """A rating, FIDE id or birth year: empty or ``0`` is none."""
    number = _number(text)
    return number or None


def _birth_year(text: str) -> int | None:
    year = _positive(text)
    if year is not None and not 1850 <= year <= 2200:
        raise _BadValueError(f"not a birth year: {text!r}")
    return year


def _week(text: str) -> YearWeek | None:
    if not text:
        return None
    try:
        if _DIGITS.fullmatch(text) and len(text) == 6:
            return YearWeek(int(text[:4]), int(text[4:]))
        german = _GERMAN_DATE.fullmatch(text)
        if german:
            return YearWeek.of(date(int(german[3]), int(german[2]), int(german[1])))
        return YearWeek.of(date.fromisoformat(text))
    except ValueError:
        raise _BadValueError(f"not a year and week (YYYYWW) or date: {text!r}") from None


def _status(text: str) -> str:
    status = {"A": "active", "": "active", "P": "passive"}.get(text.upper())
    if status is None:
        raise _BadValueError(f"not A or P: {text!r}")
    return status


def _sex(text: str) -> str | None:
    if not text:
        return None
    sex = {"M": "M", "W": "F", "F": "F", "D": "D"}.get(text.upper())
    if sex is None:
        raise _BadValueError(f"not M, W or D: {text!r}")
    return sex


def _code(text: str) -> str:
    if not _CODE.fullmatch(text):
        raise _BadValueError(f"not a code: {text!r}" if text else "empty")
    return text


_MEMBER_VALUES: dict[str, Callable[[str], object]] = {
    "club_code": _code,
    "member_no": _number,
    "status": _status,
    "sex": _sex,
    "eligibility": _optional,
    "birth_year": _birth_year,
    "last_evaluation": _week,
    "rating": _positive,
    "rating_index": _number,
    "fide_rating": _positive,
    "fide_title": _optional,
    "fide_id": _positive,
    "fide_nation": _optional,
    "fide_women_title": _optional,
    "fide_rapid": _positive,
    "fide_blitz": _positive,
    "title": _optional,
}


def _person_id(text: str, layout: Layout) -> str:
    if not text:
        raise _BadValueError("empty")
    if layout.name == "dewis" and not _DIGITS.fullmatch(text):
        raise _BadValueError(f"not a person number: {text!r}")
    return text


def _names(raw: dict[str, str], headers: dict[str, str]) -> tuple[str, str]:
    split: tuple[str, str] | None = None
    if "full_name" in raw:
        surname, _, given = raw["full_name"].partition(",")
        split = (surname.strip(), given.strip())
        if not split[0]:
            raise _BadValueError("no surname")
    if "surname" in raw and "given_name" in raw:
        separate = (raw["surname"], raw["given_name"])
        if not separate[0]:
            raise _BadValueError("no surname")
        if split is not None and split != separate:
            raise _BadValueError(f"{headers['full_name']} {raw['full_name']!r} differs from the separate name columns")
        return separate
    assert split is not None  # the reader requires the full name or both separate columns
    return split


def _member(raw: dict[str, str], table: _Table, line: int, problems: list[Problem]) -> ListMember | None:
    file, headers, bad = table.format.name, table.headers, False
    values: dict[str, object] = {"person_id": None, "line": line}
    for key, text in raw.items():
        try:
            if key == "person_id":
                values[key] = _person_id(text, table.layout)
            elif key not in NAME_COLUMNS:
                values[key] = _MEMBER_VALUES[key](text)
        except _BadValueError as error:
            problems.append(Problem(file, line, headers[key], str(error)))
            bad = True
    try:
        values["surname"], values["given_name"] = _names(raw, headers)
    except _BadValueError as error:
        column = headers.get("full_name") or headers["surname"]
        problems.append(Problem(file, line, column, str(error)))
        bad = True
    return None if bad else ListMember(**values)  # type: ignore[arg-type]


_NEVER_EVALUATED = YearWeek(1, 1)


def _most_recent(memberships: list[ListMember]) -> ListMember:
    """Of a person's passive lines, the one with the newest "Letzte Auswertung" (the first of
    equals; a line without one is the oldest): the line last brought up to date."""
    return max(memberships, key=lambda m: m.last_evaluation or _NEVER_EVALUATED)


def _people(members: tuple[ListMember, ...], table: _Table, problems: list[Problem]) -> tuple[ListPerson, ...]:
    lines: dict[str, list[ListMember]] = {}
    for member in members:
        if member.person_id is not None:
            lines.setdefault(member.person_id, []).append(member)
    people = []
    file, headers = table.format.name, table.headers
    for person_id, memberships in lines.items():
        active = [m for m in memberships if m.status == "active"]
        chosen = active[0] if active else _most_recent(memberships)
        for other in active[1:]:
            message = f"a second active membership of {person_id} (the first on line {chosen.line})"
            problems.append(Problem(file, other.line, headers["status"], message))
        people.append(ListPerson(person_id, chosen, tuple(memberships)))
    return tuple(people)


def read_spieler(
    data: bytes, codec: Codec | None = None, file: str = "spieler.csv"
) -> tuple[tuple[ListMember, ...], tuple[ListPerson, ...], FileFormat | None, tuple[Problem, ...]]:
    """The memberships and people of a ``spieler.csv``, how it was written, and its problems."""
    problems: list[Problem] = []
    table = _table(data, file, codec, problems)
    if table is None:
        return (), (), None, tuple(problems)
    members = tuple(member for line, raw in table.rows if (member := _member(raw, table, line, problems)) is not None)
    people = _people(members, table, problems)
    return members, people, table.format, tuple(sorted(problems, key=lambda p: p.line))


def _units(
    data: bytes, codec: Codec | None, file: str
) -> tuple[list[tuple[str, str, str, str, int]], _Table | None, list[Problem]]:
    problems: list[Problem] = []
    table = _table(data, file, codec, problems)
    units = []
    if table is not None:
        for line, raw in table.rows:
            try:
                code = _code(raw["code"])
            except _BadValueError as error:
                problems.append(Problem(file, line, table.headers["code"], str(error)))
                continue
            units.append((code, raw["state"], raw["parent"], raw["name"], line))
    return units, table, problems


def read_vereine(
    data: bytes, codec: Codec | None = None, file: str = "vereine.csv"
) -> tuple[tuple[ListClub, ...], FileFormat | None, tuple[Problem, ...]]:
    units, table, problems = _units(data, codec, file)
    clubs = tuple(ListClub(*unit) for unit in units)
    return clubs, None if table is None else table.format, tuple(problems)


def read_verbaende(
    data: bytes, codec: Codec | None = None, file: str = "verbaende.csv"
) -> tuple[tuple[ListFederation, ...], FileFormat | None, tuple[Problem, ...]]:
    """The federations of a ``verbaende.csv``, every line kept; a code repeated with other
    values is a problem on the repeat."""
    units, table, problems = _units(data, codec, file)
    federations = tuple(ListFederation(*unit) for unit in units)
    first: dict[str, ListFederation] = {}
    for federation in federations:
        earlier = first.setdefault(federation.code, federation)
        if earlier is not federation and earlier != federation:
            assert table is not None
            message = f"{federation.code} again, with other values than on line {earlier.line}"
            problems.append(Problem(file, federation.line, table.headers["code"], message))
    return federations, None if table is None else table.format, tuple(problems)


def read_rating_list(data: bytes, codec: Codec | None = None, name: str = "rating list") -> RatingList:
    """The three files of a rating-list ZIP (found by name in any folder, any case). ``codec``
    states the encoding of all three; without it each file's is detected."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as error:
        return RatingList((), (), (), (), (Problem(name, 0, "", f"not a ZIP: {error}"),), ())
    entries = {info.filename.rsplit("/", 1)[-1].casefold(): info for info in archive.infolist() if not info.is_dir()}
    contents: dict[str, bytes] = {}
    problems: list[Problem] = []
    for file in FILES:
        info = entries.get(file)
        if info is None:
            problems.append(Problem(file, 0, "", f"missing from {name}"))
        else:
            contents[file] = archive.read(info)
    stamp = datetime(*entries["spieler.csv"].date_time) if "spieler.csv" in entries else None
    members, people, spieler_format, spieler_problems = read_spieler(contents.get("spieler.csv", b""), codec)
    clubs, vereine_format, vereine_problems = read_vereine(contents.get("vereine.csv", b""), codec)
    federations, verbaende_format, verbaende_problems = read_verbaende(contents.get("verbaende.csv", b""), codec)
    for file, found in zip(FILES, (spieler_problems, vereine_problems, verbaende_problems), strict=True):
        if file in contents:
            problems.extend(found)
    formats = tuple(f for f in (spieler_format, vereine_format, verbaende_format) if f is not None)
    return RatingList(members, clubs, federations, people, tuple(problems), formats, stamp)
