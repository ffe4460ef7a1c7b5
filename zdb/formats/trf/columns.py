"""FIDE's fixed columns, as the TRF writers fill them: a value cut or padded to its field, and the
static part of a player line that ``001`` and the National Rating Support lines share.

Why a module of its own: the TRF16 writer (``writer.py``) and the TRF-2026 records
(``writer26.py``) fill the same fields the same way; the columns (1-based, characters) are
those the reader cites in ``players.py``.
"""

from __future__ import annotations

from datetime import date

__all__ = ["fit", "long_date", "number", "points", "static_part"]


def fit(text: str | None, width: int, *, right: bool = False) -> str:
    """``text`` in a field of ``width`` columns: cut to fit (FIDE's columns are fixed), padded."""
    text = (text or "")[:width]
    return text.rjust(width) if right else text.ljust(width)


def number(value: int | None, width: int) -> str:
    return fit("" if value is None else str(value), width, right=True)


def points(value: float | None, width: int = 4) -> str:
    """Points as ``11.5``; a quarter point (some team scorings) keeps its two decimals."""
    if value is None:
        return fit("", width)
    text = f"{value:.1f}" if value * 2 == int(value * 2) else f"{value:.2f}"
    return fit(text, width, right=True)


def long_date(value: date | None) -> str | None:
    """``YYYY/MM/DD`` (records 042, 052 and the birth date)."""
    return None if value is None else f"{value.year:04d}/{value.month:02d}/{value.day:02d}"


def static_part(
    code: str,
    start_no: int,
    *,
    sex: str | None,
    title: str | None,
    name: str,
    rating: int | None,
    origin: str | None,
    identifier: str,
    birth: str,
) -> str:
    """Columns 1-79 of a player line: 1-3 code, 5-8 start number, 10 sex, 11-13 title
    (right-aligned), 15-47 name, 49-52 rating, 54-56 federation (origin), 58-68 id (right-aligned),
    70-79 birth date."""
    return (
        fit(code, 3)
        + " "
        + number(start_no, 4)
        + " "
        + fit(sex, 1)
        + fit(title, 3, right=True)
        + " "
        + fit(name, 33)
        + " "
        + number(rating, 4)
        + " "
        + fit(origin, 3)
        + " "
        + fit(identifier, 11, right=True)
        + " "
        + fit(birth, 10)
    )
