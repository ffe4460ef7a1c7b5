"""How figures and dates read in each language: a decimal comma, a point between thousands and
day.month.year in German, a decimal point, a comma between thousands and ISO dates in English;
a real minus sign in both; moments in the federation's local time. Used as template filters.

Counts (players, tournaments, memberships) are grouped by thousands (``1.863``) with Babel's
CLDR data; ratings, indexes, years and numbers that name something (a person number) are not:
a DWZ of 2215 is written so in every rating list."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from babel.dates import format_datetime
from babel.numbers import format_decimal

__all__ = ["LOCAL_TIME", "format_count", "format_day", "format_moment", "format_number", "signed"]

#: the federation's time: the pages show every stored moment (kept in UTC) in it
LOCAL_TIME = ZoneInfo("Europe/Berlin")
_LOCALES = {"de": "de_DE", "en": "en_GB"}
_MINUS = "\u2212"


def format_number(value: float | int | None, digits: int, language: str) -> str:
    """``value`` with ``digits`` decimals; an absent value is a dash."""
    if value is None:
        return "–"
    text = f"{value:.{digits}f}"
    text = text.replace(".", ",") if language == "de" else text
    return text.replace("-", _MINUS)


def format_count(value: int | None, language: str) -> str:
    """A count grouped by thousands: 1.863 (German), 1,863 (English); a negative one with a minus sign."""
    if value is None:
        return "–"
    return format_decimal(value, locale=_LOCALES.get(language, "de_DE")).replace("-", _MINUS)


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
    """A moment to the second in the federation's local time, with its zone (MEZ or MESZ in
    German, CET or CEST in English); a moment stored without a zone is UTC."""
    if value is None:
        return "–"
    local = (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(LOCAL_TIME)
    day = format_day(local.date(), language)
    zone = format_datetime(local, "zzz", tzinfo=LOCAL_TIME, locale=_LOCALES.get(language, "de_DE"))
    return f"{day} {local.strftime('%H:%M:%S')} {zone}"
