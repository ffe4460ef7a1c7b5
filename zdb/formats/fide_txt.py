"""Streams FIDE's combined rating list in fixed-width text (``players_list_foa.txt``).

The columns are found in the header line, not at fixed offsets: FIDE's layouts moved them (the
``FOA`` column was inserted before the ratings, shifting every later one), and the known
header names (``ID Number``, ``Name``, ``Fed``, ``Sex``, ``Tit``, ``WTit``, ``OTit``, ``FOA``,
``SRtng`` ``SGm`` ``SK``, ``RRtng`` ``RGm`` ``Rk``, ``BRtng`` ``BGm`` ``BK``, ``B-day``, ``Flag``)
each start their column, which runs to the start of the next. ``FOA`` may be missing; any other
missing column is one problem and nothing is read. A few players have more other titles than
the ``OTit`` column holds: their line is longer than the header by as many characters, and
every column after ``OTit`` moves right by as much (by no more than the titles run beyond
their column: a line may also be longer by blanks at its end).

The encoding is stated, or decided per line: UTF-8, else Windows-1252 (Latin-1 for the bytes
Windows-1252 lacks). Widths are counted in characters, after decoding.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from operator import itemgetter

from zdb.formats.fide_list import FidePlayer, FideRating, FideReadError, number, sex, titles
from zdb.formats.list_model import Problem

__all__ = ["COLUMNS", "read_fide_txt"]

#: the header names and what they hold
COLUMNS = (
    "ID Number",
    "Name",
    "Fed",
    "Sex",
    "Tit",
    "WTit",
    "OTit",
    "FOA",
    "SRtng",
    "SGm",
    "SK",
    "RRtng",
    "RGm",
    "Rk",
    "BRtng",
    "BGm",
    "BK",
    "B-day",
    "Flag",
)
_ALIASES = {"Bday": "B-day", "Birthday": "B-day", "ID": "ID Number"}
_OPTIONAL = frozenset({"FOA"})
_SEXES = frozenset({"M", "F", ""})
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")  # C0 but TAB, and DEL
_TOKEN = re.compile(r"ID Number|\S+")


def _decode(raw: bytes, codec: str | None) -> str:
    if codec is not None:
        return raw.decode(codec)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        try:
            return raw.decode("cp1252")
        except UnicodeDecodeError:
            return raw.decode("latin-1")


class _Layout:
    """The column spans of one header; ``cut`` splits a line, moving the columns after ``OTit``
    right by the characters the line has beyond the header's width, but not by more than the
    other titles run beyond their column (the rest is blanks after the end of the line)."""

    def __init__(self, header: str) -> None:
        tokens = [(match.start(), _ALIASES.get(match.group(), match.group())) for match in _TOKEN.finditer(header)]
        self.width = len(header)
        self.starts = {name: start for start, name in tokens if name in COLUMNS}
        self.missing = [name for name in COLUMNS if name not in self.starts and name not in _OPTIONAL]
        ends = [start for start, _ in tokens[1:]] + [10**6]
        spans = {name: (start, end) for (start, name), end in zip(tokens, ends, strict=True)}
        self.names = [name for name in COLUMNS if name in spans]
        self.spans = [spans[name] for name in self.names]
        other = self.starts.get("OTit", 10**6)
        self.moving = [(start > other, end > other) for start, end in self.spans]
        self.other_end = spans["OTit"][1] if "OTit" in spans else 0
        # built only for a complete header: itemgetter of fewer than two slices answers no tuple
        self.getter = itemgetter(*(slice(start, end) for start, end in self.spans)) if not self.missing else None

    def column_at(self, position: int) -> str:
        """The column a character of a line is in (by the header's spans; the last runs to the end)."""
        return next((name for name, (a, b) in zip(self.names, self.spans, strict=True) if a <= position < b), "")

    def cut(self, line: str) -> dict[str, str]:
        shift = len(line) - self.width
        if shift > 0:  # overflowing other titles, or blanks after the end: no more than the titles' excess
            blank = line.find(" ", self.other_end - 1)
            shift = min(shift, (len(line) if blank < 0 else blank) - self.other_end)
        if shift <= 0 and self.getter is not None:
            return dict(zip(self.names, [value.strip() for value in self.getter(line)], strict=True))
        return {
            name: line[a + shift * move_a : b + shift * move_b].strip()
            for name, (a, b), (move_a, move_b) in zip(self.names, self.spans, self.moving, strict=True)
        }


def _optional(text: str) -> str | None:
    return text or None


def _player(values: dict[str, str], line: int) -> FidePlayer:
    """The player of a line; ``FideReadError`` with the column's name in ``args[1]``."""
    column = "ID Number"
    try:
        fide_id = number(values["ID Number"])
        if not fide_id:
            raise FideReadError("no FIDE id")
        column = "Name"
        if not values["Name"]:
            raise FideReadError("empty")
        column = "Sex"
        player_sex = sex(values["Sex"])
        column = "OTit"
        other = titles(values["OTit"])
        ratings = []
        for kind in "SRB":
            column = f"{kind}Rtng"
            rated = number(values[column]) or None
            column = f"{kind}Gm"
            games = number(values[column])
            column = "SK" if kind == "S" else f"{kind}K" if kind == "B" else "Rk"
            ratings.append(FideRating(rated, games, number(values[column]) or None))
        column = "B-day"
        born = number(values["B-day"]) or None
    except FideReadError as error:
        raise error.in_column(column) from None
    return FidePlayer(
        fide_id,
        values["Name"],
        values["Fed"],
        player_sex,
        _optional(values["Tit"]),
        _optional(values["WTit"]),
        other,
        _optional(values.get("FOA", "")),
        ratings[0],
        ratings[1],
        ratings[2],
        born,
        values["Flag"],
        line,
    )


def _fast(layout: _Layout, line: str, number_: int) -> FidePlayer | None:
    """The player of a line no longer than the header whose values are all sound, quickly;
    ``None`` for any other line (``_player`` then names the problem)."""
    assert layout.getter is not None  # the reader reads no line after an incomplete header
    values = [value.strip() for value in layout.getter(line)]
    if len(values) == 18:
        values.insert(7, "")  # the older layout without FOA
    fide_id, name, federation, sex, title, women, other, foa, *numbers, flags = values
    digits = "".join(numbers)
    if not (name and sex in _SEXES and fide_id.isdigit() and digits.isdigit() and digits.isascii()):
        return None
    if " " in other or not fide_id.isascii() or fide_id.strip("0") == "":
        return None
    sr, sg, sk, rr, rg, rk, br, bg, bk, born = [int(value) if value else 0 for value in numbers]
    return FidePlayer(
        int(fide_id),
        name,
        federation,
        sex or None,
        title or None,
        women or None,
        tuple(t for t in other.split(",") if t) if other else (),
        foa or None,
        FideRating(sr or None, sg, sk or None),
        FideRating(rr or None, rg, rk or None),
        FideRating(br or None, bg, bk or None),
        born or None,
        flags,
        number_,
    )


def read_fide_txt(
    lines: Iterable[bytes], codec: str | None = None, file: str = "players_list_foa.txt"
) -> Iterator[FidePlayer | Problem]:
    """The players of the list, one at a time, and a ``Problem`` for each line that cannot be
    read (that line gives no player). ``lines`` is the file opened in binary mode."""
    layout: _Layout | None = None
    for number_, raw in enumerate(lines, start=1):
        try:
            text = _decode(raw, codec).rstrip("\r\n")
        except UnicodeDecodeError as error:
            byte = f"0x{raw[error.start]:02X}"
            yield Problem.of(file, number_, "", "not {codec}: byte {byte}", codec=codec or error.encoding, byte=byte)
            continue
        if layout is None:
            if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in raw:
                yield Problem.of(
                    file,
                    number_,
                    "",
                    "the file holds NUL bytes: it is UTF-16 or not a text file; "
                    "FIDE's list is plain text (or its XML or ZIP)",
                )
                return
            layout = _Layout(text.lstrip("\ufeff"))
            if len(layout.missing) == len(COLUMNS) - len(_OPTIONAL):
                yield Problem.of(
                    file,
                    number_,
                    "",
                    "no recognisable header: the first line names none of FIDE's columns (ID Number, Name, Fed, ...)",
                )
                return
            if layout.missing:
                for name in layout.missing:
                    yield Problem.of(file, number_, name, "required column missing from the header")
                return
            continue
        if not text.strip():
            continue
        control = _CONTROL.search(text)
        if control is not None:  # a damaged line: a value never holds one (and PostgreSQL cannot store a NUL)
            name = {0: "NUL", 0x1B: "ESC"}.get(ord(control.group()), f"U+{ord(control.group()):04X}")
            column = layout.column_at(control.start())
            yield Problem.of(
                file,
                number_,
                column,
                "holds a control character ({name}); a value never does: the line is damaged",
                name=name,
            )
            continue
        if len(text) <= layout.width:
            player = _fast(layout, text, number_)
            if player is not None:
                yield player
                continue
        try:
            yield _player(layout.cut(text), number_)
        except FideReadError as error:
            yield error.problem(file, number_)
    if layout is None:
        yield Problem.of(file, 0, "", "empty file")
