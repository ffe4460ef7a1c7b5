"""A player of the FIDE rating list, as both of FIDE's downloads give him.

FIDE publishes its combined list (standard, rapid and blitz) monthly as fixed-width text
(``players_list_foa.txt``, ``zdb.formats.fide_txt``) and as XML (``players_list_xml_foa.xml``,
``zdb.formats.fide_xml``), more than a million players each. Both readers stream: they yield one
``FidePlayer`` (or a ``Problem``) at a time, so a sync can walk the list in flat memory.

A rating of ``0`` or none is unrated (``None``); a birth year ``0`` is unknown (``None``); ``K``
``0`` or none is ``None``; games none is 0. ``flags`` is FIDE's flag field as written: ``i``
inactive, ``w`` woman, ``wi`` both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from zdb.formats.list_model import Problem

__all__ = ["FidePlayer", "FideRating", "FideReadError", "Problem", "number", "sex", "titles"]


@dataclass(frozen=True, slots=True)
class FideRating:
    """One of a player's three ratings: ``None`` unrated; games in the last period; K factor."""

    rating: int | None
    games: int = 0
    k: int | None = None


@dataclass(frozen=True, slots=True)
class FidePlayer:
    fide_id: int
    name: str
    federation: str
    sex: str | None  # "M" or "F"
    title: str | None
    women_title: str | None
    other_titles: tuple[str, ...]
    online_title: str | None  # FIDE Online Arena title (FOA)
    standard: FideRating
    rapid: FideRating
    blitz: FideRating
    birth_year: int | None
    flags: str
    line: int = field(default=0, compare=False)

    @property
    def inactive(self) -> bool:
        return "i" in self.flags


class FideReadError(ValueError):
    """A value of the list that cannot be read: its problem's English template and values (a
    caller may put them into another language, ``Problem.of``), and the column once known."""

    def __init__(self, template: str, /, column: str = "", **params: str | int) -> None:
        super().__init__(template.format(**params))
        self.template, self.column, self.params = template, column, params

    def in_column(self, column: str) -> FideReadError:
        """The same problem, in ``column``."""
        return FideReadError(self.template, column, **self.params)

    def problem(self, file: str, line: int) -> Problem:
        return Problem.of(file, line, self.column, self.template, **self.params)


def number(text: str) -> int:
    """A non-negative number; empty is 0."""
    if not text:
        return 0
    if not text.isdigit() or not text.isascii():
        raise FideReadError("not a number: {value}", value=repr(text))
    return int(text)


def sex(text: str) -> str | None:
    if text not in ("M", "F", ""):
        raise FideReadError("not M or F: {value}", value=repr(text))
    return text or None


def titles(text: str) -> tuple[str, ...]:
    """The other titles, written ``IA,FA,DI``."""
    found = tuple(title.strip() for title in text.split(",") if title.strip())
    if any(" " in title for title in found):
        raise FideReadError("not a list of titles: {value}", value=repr(text))
    return found
