"""Control characters in a TRF line: refused with the line, column and field they are in.

A name or value never holds one. An ESC, a NUL or another control character (C0 except TAB,
DEL, or a C1 character that a Latin-1 reading of a damaged file produces) means a damaged file
or a faulty program, and PostgreSQL cannot even store a NUL: the file is refused naming where
the character is, so the referee can find it. TAB is read as a blank in player lines
(``players.py`` warns), and a DOS end-of-file mark (Ctrl-Z) at the end of a line is ignored.
"""

from __future__ import annotations

import re

from zdb.messages import Message

__all__ = ["control_character", "field_at"]

_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_NAMES = {0x00: "NUL", 0x07: "BEL", 0x08: "BS", 0x0B: "VT", 0x0C: "FF", 0x1B: "ESC", 0x7F: "DEL"}
#: the fields of a player line (and of a national rating line, which shares them) by first and last column
_PLAYER_FIELDS = (
    (1, 3, "record code"),
    (5, 8, "start number"),
    (10, 10, "sex"),
    (11, 13, "title"),
    (14, 47, "name"),
    (49, 52, "rating"),
    (54, 56, "federation"),
    (58, 68, "FIDE id"),
    (70, 80, "birth date"),
    (81, 84, "points"),
    (86, 89, "rank"),
)
_ROUND_START = 92
_CELL_WIDTH = 10


def field_at(code: str, column: int, player_line: bool) -> str:
    """The field at ``column`` (1-based) of a line: a player line's named field or round; the
    record code for any other line."""
    if not player_line:
        return code
    if column >= _ROUND_START:
        return f"round {(column - _ROUND_START) // _CELL_WIDTH + 1}"
    return next((name for first, last, name in _PLAYER_FIELDS if first <= column <= last), "layout")


def control_character(line: str) -> tuple[int, Message] | None:
    """The column of the first control character of ``line`` and what to say about it."""
    found = _CONTROL.search(line.rstrip("\x1a"))
    if found is None:
        return None
    code = ord(found.group())
    name = _NAMES.get(code, f"U+{code:04X}")
    message = Message(
        "a control character ({name}) in column {column}: a name or value never holds one; the file is damaged "
        "or was written by a faulty program",
        name=name,
        column=found.start() + 1,
    )
    return found.start() + 1, message
