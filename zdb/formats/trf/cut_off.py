"""Whether a TRF file was cut off in the middle of its last line (an upload or a copy broken off).

Why apart from the other checks: a cut file is not a file with mistakes. What the reader would
say of it (an opponent who "does not exist", a player found by name because his national number
lost its last digits, points that do not add up) follows from the cut, would send the referee
looking for mistakes he did not make, and could match a player wrongly. So a cut file is
refused with this one message, naming the line, and nothing of it is read.

FIDE's TRF ends every line with a line break; a last line without one is cut when it ends where
no line of its kind can end (columns as ``players.py`` lists them):

* a player line (``001``): before its rank (column 89; 84 for a writer that leaves the rank out)
  or inside a round's ten columns (a round ends with its result in column 99, 109, ...);
* a national line (``GER`` ...): inside its rating (49-52) or birth date (70-79), with a name
  that is only the beginning of its player's name, or shorter than every other national line
  of the file (the national lines of one file are written alike).

A line ending just after a complete field cannot be told from a short one; such a file is read
as it is (and a missing round is then reported as unfinished).
"""

from __future__ import annotations

from zdb.formats.trf.codes import FEDERATIONS
from zdb.formats.trf.players import CELL_WIDTH, ROUND_START
from zdb.messages import Message

__all__ = ["cut_off_line", "cut_off_message"]

_RESULT_OFFSET = 7  # the result's column within a round's ten (99 - 92)
_RANK_END, _POINTS_END = 89, 84
_NAME = slice(14, 47)  # columns 15-47


def _player_line_cut(length: int) -> bool:
    if length < ROUND_START:
        return length not in (_RANK_END, _POINTS_END)
    return (length - ROUND_START) % CELL_WIDTH != _RESULT_OFFSET


def _national_line_cut(line: str, length: int, lines: list[str]) -> bool:
    if 48 <= length <= 51 or 70 <= length <= 78:
        return True
    start = line[3:8]
    others = [other.rstrip() for other in lines[:-1] if other[:3] == line[:3] and other[3:4] == " "]
    name = line[_NAME].strip()
    player = next((other[_NAME].strip() for other in lines[:-1] if other[:3] == "001" and other[3:8] == start), None)
    if name and player is not None and name != player and player.startswith(name):
        return True
    return bool(others) and length < min(len(other) for other in others)


def cut_off_line(text: str, lines: list[str]) -> int | None:
    """The number of the last line if the file ends in its middle, else None."""
    if not lines or text.endswith(("\n", "\r")):
        return None
    last = lines[-1].rstrip()
    code = last[:3]
    if len(last) <= 4 or last[3] != " ":
        return None
    if code == "001" and _player_line_cut(len(last)):
        return len(lines)
    if code in FEDERATIONS and _national_line_cut(last, len(last), lines):
        return len(lines)
    return None


def cut_off_message(line: str) -> Message:
    return Message(
        "the file ends in the middle of this line (a {code} line ending at column {column}): it is cut off; "
        "send the whole file again, e.g. exported once more from the pairing program",
        code=line[:3],
        column=len(line.rstrip()),
    )
