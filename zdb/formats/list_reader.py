"""Reads a federation's rating-list ZIP in every layout in use into ``zdb.formats.list_model``.

Pure: it takes the ZIP's bytes (or one file's bytes) and returns frozen values, so an import or
sync can run it anywhere and test it without a database. A file is never unpacked or decoded
whole: it is read twice as lines within the bounds of ``zdb.formats.read_limits`` (its encoding
checked or detected first, then its values), so a ZIP bomb or an endless line stops at a bound.
Columns are matched by header name (``zdb.formats.list_layouts``), the encoding is stated or
detected (``zdb.formats.list_text``).

What is a problem, and what happens then:

- an archive that is not a ZIP, is damaged or encrypted, a UTF-16 or binary file, a bound
  exceeded: ``ReadRefusedError`` (the upload is refused as a whole, naming which);

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
import codecs
import csv
import io
import itertools
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from functools import partial

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
from zdb.formats.list_text import BOM, detect_codec
from zdb.formats.read_limits import ReadLimits, ReadRefusedError, bounded_lines
from zdb.formats.upload_archive import files_of, member_lines, open_archive

__all__ = ["FILES", "read_rating_list", "read_spieler", "read_verbaende", "read_vereine"]

FILES = ("spieler.csv", "vereine.csv", "verbaende.csv")
_DIGITS = re.compile(r"[0-9]+")
_CODE = re.compile(r"[0-9A-Za-z]+")
_GERMAN_DATE = re.compile(r"([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})")
#: C0 controls but TAB and line ends, and DEL (a Latin-1 list's C1 characters are its own matter: list_text)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_LONE_CR = re.compile(r"(?<=\r)(?!\n)")
_LIMITS = ReadLimits()
_BATCH = 4096  # lines looked at together while the encoding is checked
_NOT_C1 = bytes(b for b in range(256) if not 0x80 <= b < 0xA0)
#: a file's lines, read anew at each call
_Lines = Callable[[], Iterator[bytes]]


class _BadValueError(ValueError):
    """A value that cannot be read; its template and values are the problem's message."""

    def __init__(self, template: str, /, **params: str | int) -> None:
        super().__init__(template.format(**params))
        self.template, self.params = template, params

    def problem(self, file: str, line: int, column: str) -> Problem:
        return Problem.of(file, line, column, self.template, **self.params)


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


def _csv_problem(error: csv.Error, file: str, line: int) -> Problem:
    """What the ``csv`` module could not read, in words for staff (its own text is for programmers)."""
    text = str(error)
    if "field limit" in text:
        limit = f"{csv.field_size_limit():,}"
        return Problem.of(
            file,
            line,
            "",
            "unreadable CSV: a field is longer than {limit} characters (a quote not closed?)",
            limit=limit,
        )
    if "NUL" in text:
        return Problem.of(file, line, "", "unreadable CSV: the line holds a NUL byte")
    return Problem.of(file, line, "", "unreadable CSV: a quoted field does not end (a quote not closed?)")


def _control_problem(value: str, file: str, line: int, column: str) -> Problem:
    found = _CONTROL.search(value)
    code = ord(found.group()) if found else 0
    name = {0: "NUL", 0x1B: "ESC"}.get(code, f"U+{code:04X}")
    return Problem.of(
        file, line, column, "holds a control character ({name}); a value never does: the file is damaged", name=name
    )


def _looks_utf16(raw: bytes) -> bool:
    """NUL in every other byte: UTF-16 text (without a byte-order mark)."""
    return raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or raw[1::2].count(0) * 4 >= len(raw) > 1


def _scan(open_lines: _Lines, file: str, codec: Codec | None) -> tuple[Codec, bool] | Problem:
    """The first pass over a file: its codec (stated and checked on every line, or detected as
    ``zdb.formats.list_text`` does for the whole text) and whether it has a byte-order mark, or
    the problem of an undecodable byte. A UTF-16 or binary file is refused: the reader cannot
    tell its fields, and staff can save it again in an encoding it reads. The lines are looked
    at in batches (one decode per batch: a UTF-8 sequence never holds a line end, so a batch
    decodes exactly when each of its lines does)."""
    lines = enumerate(open_lines(), start=1)
    first = next(lines, None)
    if first is None:
        return codec or "utf-8", False
    raw = first[1]
    if _looks_utf16(raw):
        raise ReadRefusedError("utf16", file)
    if 0 in raw:  # NUL in the header: no text; a NUL further down is the CSV reader's problem on its line
        raise ReadRefusedError("binary", file, line=1)
    bom = raw.startswith(BOM)
    checked = codec or ("utf-8" if bom else None)  # a stated codec (or the mark's) must decode every line
    utf8, high = True, set[int]()
    batch = [(1, raw[len(BOM) :] if bom else raw)]
    for chunk in itertools.chain((batch,), _batches(lines)):
        body = b"".join(line for _, line in chunk)
        if checked is not None:
            try:
                body.decode(checked)
            except UnicodeDecodeError:
                return _undecodable(chunk, file, checked)
            continue
        if utf8:
            try:
                body.decode("utf-8")
            except UnicodeDecodeError:
                utf8 = False
        high.update(body.translate(None, _NOT_C1))
    if checked is not None:
        return checked, bom and checked == "utf-8"
    if utf8:
        return "utf-8", False
    return detect_codec(bytes(sorted(high)) + b"\xff")[0], False  # 0xFF: not UTF-8, so the C1 bytes decide


def _batches(lines: Iterator[tuple[int, bytes]]) -> Iterator[list[tuple[int, bytes]]]:
    while batch := list(itertools.islice(lines, _BATCH)):
        yield batch


def _undecodable(batch: list[tuple[int, bytes]], file: str, codec: str) -> Problem:
    """The problem of the first line of ``batch`` that ``codec`` cannot decode."""
    for number, raw in batch:
        try:
            raw.decode(codec)
        except UnicodeDecodeError as error:
            byte = f"0x{raw[error.start]:02X}"
            return Problem.of(file, number, "", "not {codec}: byte {byte}", codec=codec, byte=byte)
    return Problem.of(file, batch[0][0], "", "not {codec}", codec=codec)  # unreachable: the batch did not decode


def _text_lines(open_lines: _Lines, codec: Codec, bom: bool) -> Iterator[str]:
    """The second pass: the decoded lines as ``csv`` reads a file opened with ``newline=""``
    (a lone carriage return ends a line too)."""
    for number, raw in enumerate(open_lines(), start=1):
        text = (raw[len(BOM) :] if number == 1 and bom else raw).decode(codec)
        if "\r" in text.rstrip("\r\n"):
            yield from (part for part in _LONE_CR.split(text) if part)
        else:
            yield text


def _table(open_lines: _Lines, file: str, codec: Codec | None, problems: list[Problem]) -> _Table | None:
    scanned = _scan(open_lines, file, codec)
    if isinstance(scanned, Problem):
        problems.append(scanned)
        return None
    codec, bom = scanned
    lines = _text_lines(open_lines, codec, bom)
    first = next(lines, "")
    newline = "\r\n" if first.endswith("\r\n") else "\n"
    reader = csv.reader(itertools.chain((first,), lines) if first else lines)
    try:
        header = next(reader, None)
    except csv.Error as error:
        problems.append(_csv_problem(error, file, 1))
        return None
    if header is None:
        problems.append(Problem.of(file, 0, "", "empty file"))
        return None
    layout = _choose(header, file)
    if layout is None:
        problems.append(Problem.of(file, 1, "", "no known column in the header ({header})", header=", ".join(header)))
        return None
    spelled = {key: name for name, key in layout.columns}
    positions: dict[str, int] = {}
    headers: dict[str, str] = {}
    for position, name in enumerate(header):
        key = layout.key_of(name)
        if key is None:
            continue
        if key in positions:
            problems.append(Problem.of(file, 1, name.strip(), "column named twice; the first one is read"))
            continue
        positions[key] = position
        headers[key] = spelled[key]
    missing = _missing(layout, headers)
    for name in missing:
        problems.append(Problem.of(file, 1, name, "required column missing"))
    if missing:
        return None
    columns = tuple(headers[key] for key in sorted(positions, key=positions.__getitem__))
    fmt = FileFormat(file, layout.name, columns, codec, bom, newline)
    return _Table(layout, fmt, headers, _rows(reader, len(header), positions, headers, file, problems))


def _rows(  # noqa: PLR0917 - the table's parts, passed on as they are made
    reader: _csv.Reader,
    width: int,
    positions: dict[str, int],
    headers: dict[str, str],
    file: str,
    problems: list[Problem],
) -> Iterator[tuple[int, dict[str, str]]]:
    start = reader.line_num + 1
    while True:
        try:
            row = next(reader, None)
        except csv.Error as error:
            problems.append(_csv_problem(error, file, start))
            return
        if row is None:
            return
        line, start = start, reader.line_num + 1
        if not any(value.strip() for value in row):
            continue
        if len(row) != width:
            problems.append(
                Problem.of(file, line, "", "{count} fields, the header has {width}", count=len(row), width=width)
            )
            continue
        values = {key: row[position].strip() for key, position in positions.items()}
        # a NUL or another control character is a damaged file, never a value (PostgreSQL cannot
        # even store a NUL): the line is left out, naming the column
        damaged = next((key for key, value in values.items() if _CONTROL.search(value)), None)
        if damaged is not None:
            problems.append(_control_problem(values[damaged], file, line, headers[damaged]))
            continue
        yield line, values


# values ---------------------------------------------------------------------------------------


def _optional(text: str) -> str | None:
    return text or None


def _number(text: str) -> int | None:
    """A count or code number; empty is none."""
    if not text:
        return None
    if not _DIGITS.fullmatch(text):
        raise _BadValueError("not a number: {value}", value=repr(text))
    return int(text)


def _positive(text: str) -> int | None:
    """A rating, FIDE id or birth year: empty or ``0`` is none."""
    number = _number(text)
    return number or None


def _birth_year(text: str) -> int | None:
    year = _positive(text)
    if year is not None and not 1850 <= year <= 2200:
        raise _BadValueError("not a birth year: {value}", value=repr(text))
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
        raise _BadValueError("not a year and week (YYYYWW) or date: {value}", value=repr(text)) from None


def _status(text: str) -> str:
    status = {"A": "active", "": "active", "P": "passive"}.get(text.upper())
    if status is None:
        raise _BadValueError("not A or P: {value}", value=repr(text))
    return status


def _sex(text: str) -> str | None:
    if not text:
        return None
    sex = {"M": "M", "W": "F", "F": "F", "D": "D"}.get(text.upper())
    if sex is None:
        raise _BadValueError("not M, W or D: {value}", value=repr(text))
    return sex


def _code(text: str) -> str:
    if not _CODE.fullmatch(text):
        raise _BadValueError("not a code: {value}", value=repr(text)) if text else _BadValueError("empty")
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
        raise _BadValueError("not a person number: {value}", value=repr(text))
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
            raise _BadValueError(
                "{column} {value} differs from the separate name columns",
                column=headers["full_name"],
                value=repr(raw["full_name"]),
            )
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
            problems.append(error.problem(file, line, headers[key]))
            bad = True
    try:
        values["surname"], values["given_name"] = _names(raw, headers)
    except _BadValueError as error:
        column = headers.get("full_name") or headers["surname"]
        problems.append(error.problem(file, line, column))
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
            problem = Problem.of(
                file,
                other.line,
                headers["status"],
                "a second active membership of {person} (the first on line {first})",
                person=person_id,
                first=chosen.line,
            )
            problems.append(problem)
        people.append(ListPerson(person_id, chosen, tuple(memberships)))
    return tuple(people)


def _opener(data: bytes | _Lines, file: str, limits: ReadLimits) -> _Lines:
    """The file's lines, read anew at each call (the reader reads a file twice: its encoding first)."""
    if callable(data):
        return data
    return lambda: bounded_lines(io.BytesIO(data), file, limits)


def read_spieler(
    data: bytes | _Lines, codec: Codec | None = None, file: str = "spieler.csv", limits: ReadLimits = _LIMITS
) -> tuple[tuple[ListMember, ...], tuple[ListPerson, ...], FileFormat | None, tuple[Problem, ...]]:
    """The memberships and people of a ``spieler.csv`` (its bytes, or a function giving its
    lines), how it was written, and its problems."""
    problems: list[Problem] = []
    table = _table(_opener(data, file, limits), file, codec, problems)
    if table is None:
        return (), (), None, tuple(problems)
    members = tuple(member for line, raw in table.rows if (member := _member(raw, table, line, problems)) is not None)
    people = _people(members, table, problems)
    return members, people, table.format, tuple(sorted(problems, key=lambda p: p.line))


def _units(
    data: bytes | _Lines, codec: Codec | None, file: str, limits: ReadLimits
) -> tuple[list[tuple[str, str, str, str, int]], _Table | None, list[Problem]]:
    problems: list[Problem] = []
    table = _table(_opener(data, file, limits), file, codec, problems)
    units = []
    if table is not None:
        for line, raw in table.rows:
            try:
                code = _code(raw["code"])
            except _BadValueError as error:
                problems.append(error.problem(file, line, table.headers["code"]))
                continue
            units.append((code, raw["state"], raw["parent"], raw["name"], line))
    return units, table, problems


def read_vereine(
    data: bytes | _Lines, codec: Codec | None = None, file: str = "vereine.csv", limits: ReadLimits = _LIMITS
) -> tuple[tuple[ListClub, ...], FileFormat | None, tuple[Problem, ...]]:
    units, table, problems = _units(data, codec, file, limits)
    clubs = tuple(ListClub(*unit) for unit in units)
    return clubs, None if table is None else table.format, tuple(problems)


def read_verbaende(
    data: bytes | _Lines, codec: Codec | None = None, file: str = "verbaende.csv", limits: ReadLimits = _LIMITS
) -> tuple[tuple[ListFederation, ...], FileFormat | None, tuple[Problem, ...]]:
    """The federations of a ``verbaende.csv``, every line kept; a code repeated with other
    values is a problem on the repeat."""
    units, table, problems = _units(data, codec, file, limits)
    federations = tuple(ListFederation(*unit) for unit in units)
    first: dict[str, ListFederation] = {}
    for federation in federations:
        earlier = first.setdefault(federation.code, federation)
        if earlier is not federation and earlier != federation:
            assert table is not None
            problem = Problem.of(
                file,
                federation.line,
                table.headers["code"],
                "{code} again, with other values than on line {first}",
                code=federation.code,
                first=earlier.line,
            )
            problems.append(problem)
    return federations, None if table is None else table.format, tuple(problems)


def _stamp(info: zipfile.ZipInfo | None) -> datetime | None:
    if info is None:
        return None
    try:
        return datetime(*info.date_time)
    except ValueError:  # a damaged entry's time (month 0): the list then carries no date of its own
        return None


def read_rating_list(
    data: bytes, codec: Codec | None = None, name: str = "rating list", limits: ReadLimits = _LIMITS
) -> RatingList:
    """The three files of a rating-list ZIP (found by name in any folder, any case). ``codec``
    states the encoding of all three; without it each file's is detected. An archive that is
    not a ZIP, is damaged or encrypted, or exceeds ``limits`` raises ``ReadRefusedError``."""
    archive = open_archive(data, name, limits)
    entries = {info.filename.rsplit("/", 1)[-1].casefold(): info for info in files_of(archive)}
    problems: list[Problem] = []
    openers: dict[str, _Lines] = {}
    for file in FILES:
        info = entries.get(file)
        if info is None:
            problems.append(Problem.of(file, 0, "", "missing from {archive}", archive=name))
        else:
            openers[file] = partial(member_lines, archive, info, limits)
    empty: _Lines = partial(iter, ())
    members, people, spieler_format, spieler_problems = read_spieler(openers.get("spieler.csv", empty), codec)
    clubs, vereine_format, vereine_problems = read_vereine(openers.get("vereine.csv", empty), codec)
    federations, verbaende_format, verbaende_problems = read_verbaende(openers.get("verbaende.csv", empty), codec)
    for file, found in zip(FILES, (spieler_problems, vereine_problems, verbaende_problems), strict=True):
        if file in openers:
            problems.extend(found)
    formats = tuple(f for f in (spieler_format, vereine_format, verbaende_format) if f is not None)
    return RatingList(members, clubs, federations, people, tuple(problems), formats, _stamp(entries.get("spieler.csv")))
