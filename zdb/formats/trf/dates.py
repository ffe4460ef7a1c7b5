"""Dates of ``042``/``052`` (TRF26: ``YYYY/MM/DD``), ``132`` (``YY/MM/DD`` per round) and birth dates.

Files in the wild also write ``DD.MM.YYYY``, ``DD/MM/YYYY``, ``YYYY-MM-DD``, ``YY.MM.DD``, even
``YY.DD.MM`` (ICU Bunratty 2011: day and month swapped against its own 042), ``May 29, 2020``
(lichess) and placeholder text. A date is read only when its reading is certain:

* a four-digit year first (``YYYY/MM/DD``, ``YYYY-MM-DD``) or a month name: read directly;
* a four-digit year last: ``DD.MM.YYYY``; with ``/`` also ``MM/DD/YYYY`` is possible;
* two-digit parts only: ``YY.MM.DD`` (the spec), ``DD.MM.YY`` or ``YY.DD.MM``.

All dates of one shape in a file are read in the same order. Among the orders that give valid
dates for every entry and keep them plausible (start <= end, rounds in order and inside
start..end, no two dates more than 400 days apart), the first of the lists above is taken.
Two-digit years are 2000-2069 or 1970-1999. Choices:

* text without any digit (``--START DATE--``): warning, date unknown (placeholders are common
  and harmless);
* digits that give no valid date (``2024/13/45``): error naming the field and the text;
* an order that is not the spec's (``YY.DD.MM``, ``MM/DD/YYYY``) or a reading that stays
  ambiguous after the checks above: warning that states the reading used;
* a valid date outside the plausible years (a tournament or round date before 1900 or after
  2099, such as ``0001/01/01``): error naming the field and the text. A rating officer reads such a
  date as a placeholder or a typing error, never as a date to order the time line by;
* a birth year before 1850 or after 2099 (the bounds of the rating list's reader): warning naming
  the field and the text, the birth left unknown. One player's mistyped birth date is no reason
  to refuse a whole tournament, and it never teaches a record a year (``IMPLAUSIBLE_BIRTH``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from itertools import pairwise, product

from zdb.formats.trf.problems import Problems
from zdb.messages import Message

__all__ = ["IMPLAUSIBLE_BIRTH", "PLAUSIBLE_YEARS", "DateEntry", "parse_birth", "resolve_dates"]

_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("jan", "january", "januar", "jän", "jänner"),
            ("feb", "february", "februar"),
            ("mar", "march", "mär", "märz", "maerz", "mrz"),
            ("apr", "april"),
            ("may", "mai"),
            ("jun", "june", "juni"),
            ("jul", "july", "juli"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october", "okt", "oktober"),
            ("nov", "november"),
            ("dec", "december", "dez", "dezember"),
        ],
        start=1,
    )
    for name in names
}
_NUMERIC = re.compile(r"^([0-9]{1,4})\s*([./-])\s*([0-9]{1,2})\s*([./-])\s*([0-9]{1,4})$")
_COMPACT = re.compile(r"^([0-9]{4})([0-9]{2})([0-9]{2})$")
_MONTH_FIRST = re.compile(r"^([^\W\d_]+)\.?\s+([0-9]{1,2})(?:st|nd|rd|th)?\.?,?\s+([0-9]{4})$")
_DAY_FIRST = re.compile(r"^([0-9]{1,2})\.?\s+([^\W\d_]+)\.?,?\s+([0-9]{4})$")

# Orders of three numeric parts, by preference.
_YEAR_LAST_ORDERS = ("DMY", "MDY")
_SHORT_ORDERS = ("YMD", "DMY", "YDM")
_LONGEST = 400  # days: the longest plausible span of one tournament's dates
_FIRST_YEAR, _LAST_YEAR = 1900, 2099  # of a tournament's and its rounds' dates
#: the first and last year of a tournament's plausible dates
PLAUSIBLE_YEARS = (_FIRST_YEAR, _LAST_YEAR)
_FIRST_BIRTH_YEAR, _LAST_BIRTH_YEAR = 1850, 2099
#: the message of a birth year outside them (written out where it is made, for the catalogue): the
#: readers warn of it, they don't refuse the file
IMPLAUSIBLE_BIRTH = "birth date {text!r} is not plausible: a birth year lies between {first} and {last}"
_ORDER_NAMES = {
    "DMY4": "DD.MM.YYYY",
    "MDY4": "MM/DD/YYYY",
    "YMD": "YY.MM.DD",
    "DMY": "DD.MM.YY",
    "YDM": "YY.DD.MM",
}


@dataclass(frozen=True, slots=True)
class DateEntry:
    """A date to read: ``role`` is ``start`` (042), ``end`` (052), ``round`` (132, with ``round_no``)
    or ``repeat`` (a second 042 or 052, read only to report a date that cannot be)."""

    text: str
    line: int
    field: str
    role: str
    round_no: int = 0
    column: int | None = None


def _make(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _century(year: int) -> int:
    return year + (2000 if year < 70 else 1900)


def _read_order(parts: tuple[int, int, int], order: str) -> date | None:
    values = dict(zip(order, parts, strict=True))
    return _make(_century(values["Y"]), values["M"], values["D"])


@dataclass(frozen=True, slots=True)
class _Shape:
    kind: str  # "fixed", "year_last", "short", "empty", "placeholder", "invalid"
    value: date | None = None
    parts: tuple[int, int, int] = (0, 0, 0)
    slash: bool = False


def _shape(text: str) -> _Shape:
    s = text.strip()
    if not s or set(s) <= set("0./- "):
        return _Shape("empty")
    if not any(ch.isdigit() for ch in s):
        return _Shape("placeholder")
    match = _NUMERIC.match(s)
    if match:
        a, sep1, b, sep2, c = match.groups()
        parts = (int(a), int(b), int(c))
        if len(a) == 4 and len(c) <= 2:
            value = _make(*parts)
            return _Shape("fixed", value) if value else _Shape("invalid")
        if len(c) == 4 and len(a) <= 2:
            return _Shape("year_last", parts=parts, slash="/" in (sep1, sep2))
        if len(a) <= 2 and len(c) <= 2:
            return _Shape("short", parts=parts)
        return _Shape("invalid")
    match = _COMPACT.match(s)
    if match:
        value = _make(int(match[1]), int(match[2]), int(match[3]))
        return _Shape("fixed", value) if value else _Shape("invalid")
    for pattern, month_group, day_group in ((_MONTH_FIRST, 1, 2), (_DAY_FIRST, 2, 1)):
        match = pattern.match(s)
        if match:
            month = _MONTHS.get(match[month_group].lower())
            value = _make(int(match[3]), month, int(match[day_group])) if month else None
            return _Shape("fixed", value) if value else _Shape("invalid")
    return _Shape("invalid")


def _year_last(shape: _Shape, order: str) -> date | None:
    a, b, year = shape.parts
    if order == "MDY" and not shape.slash:
        return None  # dotted dates are never month first
    day, month = (a, b) if order == "DMY" else (b, a)
    return _make(year, month, day)


def _violations(entries: list[DateEntry], values: list[date | None]) -> int:
    """How many plausibility rules the readings break: start <= end, rounds in order and inside
    start..end, and all dates within ``_LONGEST`` days (a league season, not several years)."""
    pairs = list(zip(entries, values, strict=True))
    start = next((v for e, v in pairs if e.role == "start" and v), None)
    end = next((v for e, v in pairs if e.role == "end" and v), None)
    count = 0
    if start and end and start > end:
        count += 1
    rounds = sorted((e.round_no, v) for e, v in pairs if e.role == "round" and v)
    count += sum(1 for (_, earlier), (_, later) in pairwise(rounds) if later < earlier)
    count += sum(1 for _, value in rounds if (start and value < start) or (end and value > end))
    known = [v for v in values if v]
    if known and (max(known) - min(known)).days > _LONGEST:
        count += 1
    return count


@dataclass(frozen=True, slots=True)
class _Reading:
    score: tuple[int, int, int, int]  # invalid dates, broken rules, preference of both orders
    year_last: str
    short: str
    values: list[date | None]


def resolve_dates(entries: list[DateEntry], problems: Problems) -> list[date | None]:
    """Read all header and round dates of one file together (see the module docstring)."""
    shapes = [_shape(entry.text) for entry in entries]
    has_year_last = any(s.kind == "year_last" for s in shapes)
    has_short = any(s.kind == "short" for s in shapes)
    readings: list[_Reading] = []
    for (ly, yl_order), (ls, short_order) in product(
        enumerate(_YEAR_LAST_ORDERS if has_year_last else ("DMY",)),
        enumerate(_SHORT_ORDERS if has_short else ("YMD",)),
    ):
        values: list[date | None] = []
        invalid = 0
        for shape in shapes:
            value: date | None = shape.value
            if shape.kind == "year_last":
                value = _year_last(shape, yl_order)
                invalid += value is None
            elif shape.kind == "short":
                value = _read_order(shape.parts, short_order)
                invalid += value is None
            values.append(value)
        readings.append(_Reading((invalid, _violations(entries, values), ly, ls), yl_order, short_order, values))
    readings.sort(key=lambda r: r.score)
    _report_reading(entries, shapes, readings, problems)
    values = readings[0].values
    for entry, shape, value in zip(entries, shapes, values, strict=True):
        if shape.kind == "placeholder":
            problems.warning(
                entry.line,
                Message("{text!r} is not a date; taken as unknown", text=entry.text.strip()),
                field=entry.field,
            )
        elif shape.kind == "invalid" or (shape.kind in ("year_last", "short") and value is None):
            problems.error(
                entry.line, Message("{text!r} is not a valid date", text=entry.text.strip()), field=entry.field
            )
        elif value is not None and not _FIRST_YEAR <= value.year <= _LAST_YEAR:
            problems.error(
                entry.line,
                Message(
                    "{text!r} is not a plausible date: a tournament's dates lie between {first} and {last}",
                    text=entry.text.strip(),
                    first=_FIRST_YEAR,
                    last=_LAST_YEAR,
                ),
                field=entry.field,
            )
    return [value if value is None or _FIRST_YEAR <= value.year <= _LAST_YEAR else None for value in values]


def _order(reading: _Reading, kind: str) -> str:
    return reading.year_last if kind == "year_last" else reading.short


def _report_reading(
    entries: list[DateEntry], shapes: list[_Shape], readings: list[_Reading], problems: Problems
) -> None:
    """Warn when the chosen day/month order is not the spec's, or when another order fits as well."""
    best = readings[0]
    plausible = [r for r in readings if r.score[:2] == best.score[:2]]
    for kind, default, suffix in (("year_last", "DMY", "4"), ("short", "YMD", "")):
        group = [k for k, shape in enumerate(shapes) if shape.kind == kind]
        if not group:
            continue
        chosen = [best.values[k] for k in group]
        first = entries[group[0]]
        name = _ORDER_NAMES[_order(best, kind) + suffix]
        others = sorted(
            {_ORDER_NAMES[_order(r, kind) + suffix] for r in plausible if [r.values[k] for k in group] != chosen}
        )
        if others:
            problems.warning(
                first.line,
                Message(
                    "dates like {text!r} are ambiguous ({order} or {others}); read as {order}",
                    text=first.text.strip(),
                    order=name,
                    others=", ".join(others),
                ),
                field=first.field,
            )
        elif _order(best, kind) != default:
            problems.warning(
                first.line,
                Message(
                    "dates like {text!r} are only valid and in order when read as {order}; read so",
                    text=first.text.strip(),
                    order=name,
                ),
                field=first.field,
            )


def parse_birth(text: str) -> tuple[int | None, date | None, Message | None]:
    """Birth year, full birth date (when day and month are given) and an error message.

    Accepts ``YYYY/MM/DD``, ``YYYY-MM-DD``, ``YYYY`` and ``YYYY/00/00`` (year only), ``DD.MM.YYYY``;
    blank and ``0000/00/00`` mean unknown.
    """
    s = text.strip()
    if not s or set(s) <= set("0./- "):
        return None, None, None
    if re.fullmatch(r"[0-9]{4}", s):
        return _plausible_birth(int(s), None, s)
    if match := re.fullmatch(r"([0-9]{4})[./-]([0-9]{1,2})[./-]([0-9]{1,2})", s):
        year, month, day = (int(g) for g in match.groups())
    elif match := re.fullmatch(r"([0-9]{1,2})[./-]([0-9]{1,2})[./-]([0-9]{4})", s):
        day, month, year = (int(g) for g in match.groups())
    else:
        return None, None, Message("birth date {text!r} is not a date", text=s)
    if month == 0 and day == 0:
        return _plausible_birth(year, None, s)
    value = _make(year, month, day)
    if value is None:
        return None, None, Message("birth date {text!r} is not a valid date", text=s)
    return _plausible_birth(year, value, s)


def _plausible_birth(year: int, value: date | None, text: str) -> tuple[int | None, date | None, Message | None]:
    if _FIRST_BIRTH_YEAR <= year <= _LAST_BIRTH_YEAR:
        return year, value, None
    message = Message(
        "birth date {text!r} is not plausible: a birth year lies between {first} and {last}",
        text=text,
        first=_FIRST_BIRTH_YEAR,
        last=_LAST_BIRTH_YEAR,
    )
    return None, None, message
