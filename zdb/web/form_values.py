"""Reading a GET form's fields: an empty field is "not given", a wrong one is a problem named
after its field (all problems of a form are reported together). A date may be written the German
way (TT.MM.JJJJ) where a form says so."""

from __future__ import annotations

import re
from datetime import date

from zdb.errors import ValidationProblem
from zdb.messages import Message

__all__ = ["german_day", "optional_date", "optional_german_date", "optional_int"]

_GERMAN = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")


def optional_int(problems: list[ValidationProblem], field: str, text: str | None, low: int, high: int) -> int | None:
    text = (text or "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        problems.append(ValidationProblem(field, Message("{text!r} is not a whole number", text=text)))
        return None
    if not low <= value <= high:
        problems.append(
            ValidationProblem(
                field, Message("must lie between {low} and {high}, got {value}", low=low, high=high, value=value)
            )
        )
        return None
    return value


def optional_date(problems: list[ValidationProblem], field: str, text: str | None) -> date | None:
    text = (text or "").strip()
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        problems.append(ValidationProblem(field, Message("{text!r} is not a date (YYYY-MM-DD)", text=text)))
        return None


def german_day(day: date) -> str:
    """``day`` as a German form shows it: TT.MM.JJJJ."""
    return f"{day.day:02d}.{day.month:02d}.{day.year}"


def optional_german_date(problems: list[ValidationProblem], field: str, text: str | None) -> date | None:
    """A date written TT.MM.JJJJ (as a German reader writes it) or JJJJ-MM-TT (a date input's value)."""
    text = (text or "").strip()
    found = _GERMAN.fullmatch(text)
    if found is None:
        if not text or re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return optional_date(problems, field, text)
        problems.append(ValidationProblem(field, Message("{text!r} is not a date (DD.MM.YYYY)", text=text)))
        return None
    day, month, year = (int(part) for part in found.groups())
    try:
        return date(year, month, day)
    except ValueError:
        problems.append(ValidationProblem(field, Message("{text!r} is not a date (DD.MM.YYYY)", text=text)))
        return None
