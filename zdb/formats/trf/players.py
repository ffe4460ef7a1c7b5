"""``001`` player lines and National Rating Support lines.

Columns (1-based, characters) from FIDE TRF16 / TRF26 "Player Section":

====  =====  ================================================
 5-8  start   starting-rank number
  10  sex     ``m`` / ``w`` (also ``M``, ``F``, blank)
11-13 title   GM IM WGM FM WIM CM WFM WCM (ICU/JaVaFo: ``g m f``)
15-47 name
49-52 rating  FIDE rating
54-56 fed     federation (some tools put club codes here)
58-68 id      FIDE number
70-79 birth   ``YYYY/MM/DD``
81-84 points  ``11.5``
86-89 rank
92-   rounds  10 columns per round: 92-95 opponent, 97 colour, 99 result
====  =====  ================================================

NRS lines (TRF26 "National Rating Support records") use the same static part behind a FIDE
federation code: 11-13 national classification, 49-52 national rating, 54-56 national origin,
58-68 national number. For ``GER`` the national rating is the DWZ, and the national number holds
the club code (ZPS, five characters such as ``C0327``) with the membership number
(``C0327-123``), or the person number (digits only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from zdb.formats.trf.dates import IMPLAUSIBLE_BIRTH, parse_birth
from zdb.formats.trf.model import TrfNationalRecord, TrfPlayer, TrfRoundCell
from zdb.formats.trf.problems import Problems
from zdb.messages import Message

__all__ = ["ParsedPlayer", "is_int", "parse_national", "parse_player", "read_cells"]

_TITLES = {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"}
_SHORT_TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM", "wc": "WCM"}
_SEX = {"m": "m", "M": "m", "w": "w", "W": "w", "f": "w", "F": "w"}
RESULT_CODES = frozenset("10=+-WDLHFUZ")
_DIGITS = re.compile(r"[0-9]{1,18}")  # bounded: int() of thousands of digits raises
_POINTS = re.compile(r"[0-9]{1,4}(?:[.,][0-9]{0,2})?|[.,][0-9]{1,2}")  # "11.5"; "4,5" from German tools
_ZPS = re.compile(r"[0-9A-Z]{2}[0-9]{3}")
_ZPS_MEMBER = re.compile(r"([0-9A-Z]{2}[0-9]{3})[-/.]([0-9]{1,5})")
ROUND_START = 92  # column of round 1
CELL_WIDTH = 10


def is_int(text: str) -> bool:
    """ASCII digits only (``str.isdigit`` accepts superscripts that ``int`` rejects)."""
    return bool(_DIGITS.fullmatch(text))


@dataclass(frozen=True, slots=True)
class ParsedPlayer:
    player: TrfPlayer
    unreadable_rounds: frozenset[int]  # cells that could not be read (already reported)
    ends_before_rounds: int | None = None  # the line's last column, when it ends before the round cells


def _cols(line: str, first: int, last: int) -> str:
    return line[first - 1 : last]


def _birth(line: str, lineno: int, problems: Problems) -> str:
    """Columns 70-79; a date written one column late (71-80, over the blank column 80) is read there."""
    text = _cols(line, 70, 79)
    if _cols(line, 80, 80).strip() and not _cols(line, 70, 70).strip():
        shifted = _cols(line, 71, 80).strip()
        problems.warning(
            lineno,
            Message("birth date {text!r} is in columns 71-80 instead of 70-79; read there", text=shifted),
            field="birth date",
        )
        return shifted
    return text.strip()


def _sex_and_title(line: str, lineno: int, problems: Problems) -> tuple[str | None, str | None]:
    sex_char = _cols(line, 10, 10)
    title_text = _cols(line, 11, 13).strip()
    sex = _SEX.get(sex_char)
    if sex is None and sex_char.strip():
        joined = _cols(line, 10, 13).strip()
        if _title(joined) in _TITLES:
            problems.warning(
                lineno,
                Message("title {title!r} starts in the sex column 10; read as title", title=joined),
                field="title",
            )
            return None, _title(joined)
        problems.warning(lineno, Message("sex {sex!r} is not m or w; ignored", sex=sex_char), field="sex", column=10)
    title = _title(title_text) if title_text else None
    if title is not None and title not in _TITLES:
        problems.warning(lineno, Message("unknown title {title!r}; kept as written", title=title_text), field="title")
    return sex, title


def _title(text: str) -> str:
    short = _SHORT_TITLES.get(text.lower()) if len(text) <= 2 and text.islower() else None
    if short:
        return short
    return text.upper() if text.upper() in _TITLES else text


def _number(text: str, lineno: int, name: Message, problems: Problems, *, error: bool) -> int | None:
    """A right-aligned integer field; blank and 0 are None."""
    if not text:
        return None
    if is_int(text):
        return int(text) or None
    report = problems.error if error else problems.warning
    report(lineno, Message("{name} {text!r} is not a number", name=name, text=text), field=name.template)
    return None


def _points(text: str, lineno: int, problems: Problems) -> float | None:
    if not text:
        return None
    if _POINTS.fullmatch(text):
        return float(text.replace(",", "."))
    problems.warning(lineno, Message("points {text!r} is not a number", text=text), field="points")
    return None


def _slot_ok(slot: str) -> bool:
    opponent = slot[0:4].strip()
    return (
        slot[4] == " "
        and slot[6] == " "
        and slot[8:10] == "  "
        and (not opponent or is_int(opponent))
        and slot[5] in "wWbB- "
        and (slot[7] == " " or slot[7].upper() in RESULT_CODES)
    )


def _slots(line: str, offset: int) -> list[str]:
    section = line[ROUND_START - 1 + offset :].rstrip()
    return [section[k : k + CELL_WIDTH].ljust(CELL_WIDTH) for k in range(0, len(section), CELL_WIDTH)]


def read_cells(line: str, lineno: int, problems: Problems) -> tuple[list[TrfRoundCell], set[int]]:
    """The round cells from column 92. If they do not fit there but all fit one column later or
    earlier, they are read there (with a warning); otherwise each unreadable cell is an error."""
    offset = 0
    slots = _slots(line, 0)
    if not all(_slot_ok(s) for s in slots):
        for shift in (1, -1):
            shifted = _slots(line, shift)
            if shifted and all(_slot_ok(s) for s in shifted) and not _cols(line, 91 + shift, 91 + shift).strip():
                problems.warning(
                    lineno,
                    Message(
                        "round results start at column {column} instead of {expected}; read there",
                        column=ROUND_START + shift,
                        expected=ROUND_START,
                    ),
                    field="rounds",
                )
                offset, slots = shift, shifted
                break
    cells: list[TrfRoundCell] = []
    unreadable: set[int] = set()
    for k, slot in enumerate(slots):
        round_no = k + 1
        column = ROUND_START + offset + CELL_WIDTH * k
        if not _slot_ok(slot):
            problems.error(
                lineno,
                Message(
                    "cannot read the cell {cell!r} (expected 'NNNN c r': opponent, colour, result)", cell=slot.rstrip()
                ),
                field=f"round {round_no}",
                column=column,
            )
            unreadable.add(round_no)
            cells.append(TrfRoundCell(round_no, None, None, None, column, slot.rstrip(), readable=False))
            continue
        opponent_text = slot[0:4].strip()
        opponent = int(opponent_text) if opponent_text else 0
        colour_char = slot[5].lower()
        cells.append(
            TrfRoundCell(
                round=round_no,
                opponent=opponent or None,
                colour=colour_char if colour_char != " " else None,
                result=slot[7].upper() if slot[7] != " " else None,
                column=column,
                text=slot.rstrip(),
            )
        )
    return cells, unreadable


def start_number(line: str) -> int | None:
    text = _cols(line, 5, 8).strip()
    return int(text) if is_int(text) and int(text) > 0 else None


def parse_player(line: str, lineno: int, problems: Problems) -> ParsedPlayer | None:
    """A ``001`` line; None (with an error) when it has no usable start number."""
    if "\t" in line:
        problems.warning(
            lineno, Message("TAB characters in a fixed-column line; each read as one blank"), field="layout"
        )
        line = line.replace("\t", " ")
    start_no = start_number(line)
    if start_no is None:
        problems.error(
            lineno,
            Message("start number {text!r} is not a positive number", text=_cols(line, 5, 8).strip()),
            field="start number",
        )
        return None
    sex, title = _sex_and_title(line, lineno, problems)
    if _cols(line, 14, 14).strip():
        name = _cols(line, 14, 47).strip()
        problems.warning(lineno, Message("the name starts in column 14 instead of 15"), field="name")
    else:
        name = _cols(line, 15, 47).strip()
    if not name:
        problems.warning(lineno, Message("the player has no name"), field="name")
    federation = _cols(line, 54, 56).strip() or None  # checked once for the whole file (checks.py)
    fide_text = _cols(line, 58, 68).strip()
    fide_id = None if set(fide_text) <= {"-"} else _number(fide_text, lineno, Message("FIDE id"), problems, error=False)
    birth_text = _birth(line, lineno, problems)
    birth_year, birth_date, birth_error = parse_birth(birth_text)
    if birth_error:
        report = problems.warning if birth_error.template == IMPLAUSIBLE_BIRTH else problems.error
        report(lineno, birth_error, field="birth date")
    rank_text = _cols(line, 86, 89).strip()
    cells, unreadable = read_cells(line, lineno, problems)
    player = TrfPlayer(
        line=lineno,
        start_no=start_no,
        sex=sex,
        title=title,
        name=name,
        rating=_number(_cols(line, 49, 52).strip(), lineno, Message("rating"), problems, error=True),
        federation=federation,
        fide_id=fide_id,
        birth_text=birth_text,
        birth_year=birth_year,
        birth_date=birth_date,
        points=_points(_cols(line, 81, 84).strip(), lineno, problems),
        rank=_number(rank_text, lineno, Message("rank"), problems, error=False),
        cells=tuple(cells),
    )
    ends = len(line.rstrip())
    return ParsedPlayer(player, frozenset(unreadable), ends if ends < ROUND_START else None)


def parse_national(line: str, lineno: int, problems: Problems) -> TrfNationalRecord | None:
    """An NRS line (the caller has checked the federation code and the start number)."""
    start_no = start_number(line)
    if start_no is None:
        return None
    line = line.replace("\t", " ")
    federation = _cols(line, 1, 3)
    sex = _SEX.get(_cols(line, 10, 10))
    classification = _cols(line, 11, 13).strip() or None
    rating_text = _cols(line, 49, 52).strip()
    rating = _number(rating_text, lineno, Message("national rating"), problems, error=False)
    origin = _cols(line, 54, 56).strip() or None
    national_id = _cols(line, 58, 68).strip() or None
    birth_text = _birth(line, lineno, problems)
    birth_year, birth_date, birth_error = parse_birth(birth_text)
    if birth_error:
        report = problems.warning if birth_error.template == IMPLAUSIBLE_BIRTH else problems.error
        report(lineno, birth_error, field="birth date")
    club_code = member_no = person_no = None
    if federation == "GER":
        club_code, member_no, person_no = _german_ids(line, national_id, lineno, problems)
    return TrfNationalRecord(
        line=lineno,
        federation=federation,
        start_no=start_no,
        sex=sex,
        classification=classification,
        name=_cols(line, 15, 47).strip(),
        rating=rating,
        origin=origin,
        national_id=national_id,
        birth_text=birth_text,
        birth_year=birth_year,
        birth_date=birth_date,
        club_code=club_code,
        member_no=member_no,
        person_no=person_no,
    )


def _german_ids(
    line: str, national_id: str | None, lineno: int, problems: Problems
) -> tuple[str | None, str | None, str | None]:
    """ZPS club code, membership number and person number of a ``GER`` line."""
    tokens = _cols(line, 54, 68).split()
    if len(tokens) == 2 and _ZPS.fullmatch(tokens[0]) and is_int(tokens[1]):
        # The five-character ZPS does not fit the three origin columns 54-56: some write it there.
        return tokens[0], tokens[1], None
    if not national_id:
        return None, None, None
    if is_int(national_id):
        return None, None, national_id  # digits only: the person number (a ZPS would need a separator)
    match = _ZPS_MEMBER.fullmatch(national_id)
    if match:
        return match[1], match[2], None
    if _ZPS.fullmatch(national_id):
        return national_id, None, None
    if _ZPS.fullmatch(national_id[:5]) and is_int(national_id[5:]) and not is_int(national_id[:5]):
        return national_id[:5], national_id[5:], None  # "C0327123": the letter marks where the ZPS ends
    problems.warning(
        lineno,
        Message(
            "GER national number {number!r} is neither ZPS and membership number nor a person number",
            number=national_id,
        ),
        field="national number",
    )
    return None, None, None
