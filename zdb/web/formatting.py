"""How figures and dates read in each language: a decimal comma and day.month.year in German,
a decimal point and ISO dates in English. Used as template filters."""

from __future__ import annotations

from datetime import date, datetime

__all__ = ["format_day", "format_moment", "format_number", "signed"]


def format_number(value: float | int | None, digits: int, language: str) -> str:
    """``value`` with ``digits`` decimals; an absent value is a dash."""
    if value is None:
        return "–"
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if language == "de" else text


def signed(value: int | None) -> str:
    """A rating change with its sign: +12, −7 (a real minus sign), ±0."""
    if value is None:
        return "–"
    if value == 0:
        return "±0"
    return f"+{value}" if value > 0 else f"−{-value}"


def format_day(value: date | None, language: str) -> str:
    if value is None:
        return "–"
    return value.strftime("%d.%m.%Y") if language == "de" else value.isoformat()


def format_moment(value: datetime | None, language: str) -> str:
    """A moment to the second, in UTC as stored."""
    if value is None:
        return "–"
    day = format_day(value.date(), language)
    return f"{day} {value.strftime('%H:%M:%S')} UTC"
