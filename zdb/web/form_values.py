"""Reading a GET form's fields: an empty field is "not given", a wrong one is a problem named
after its field (all problems of a form are reported together)."""

from __future__ import annotations

from datetime import date

from zdb.errors import ValidationProblem
from zdb.messages import Message

__all__ = ["optional_date", "optional_int"]


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
