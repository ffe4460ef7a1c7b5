"""Records that may be the person about to be entered: the guard against silent duplicates.

Why: a second record of one person splits his history and rates him as a newcomer; the rating
office then has to find and merge it. So whoever enters a person is told of the records that
may be him: the same name and birth date (staff are refused unless they insist, see
``zdb.office.persons``), or a near name with the same birth — one edit apart on the folded name
(Damerau-Levenshtein distance 1: "Idda"/"Ida", "Krnaz"/"Kranz") or given name and surname
swapped — which is a warning naming the candidate (previews, submissions, the staff's forms).

The birth is compared as the matching compares it (``zdb.players.matching``): the full date
only where both sides have one and the caller may read the record's (``Principal.sees_private``),
else the birth year, so that a warning never tells whether a tried date is right. A record
without a birth year is never a candidate here: a near name alone says too little. A record a
merge absorbed is never one (``zdb.players.merged``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date

from rapidfuzz.distance import DamerauLevenshtein
from sqlalchemy import select
from sqlalchemy.orm import Session

from zdb.auth.principal import Principal
from zdb.common.names import fold_name
from zdb.players.merged import LIVE
from zdb.players.models import Membership, Player

__all__ = ["Similar", "Wanted", "current_clubs", "similar_records"]


@dataclass(frozen=True, slots=True)
class Wanted:
    """A person about to be entered (or a record looked at), as far as names and birth go."""

    surname: str
    given_name: str
    birth_date: date | None = None
    birth_year: int | None = None

    @property
    def year(self) -> int | None:
        return self.birth_date.year if self.birth_date is not None else self.birth_year


@dataclass(frozen=True, slots=True)
class Similar:
    """A record that may be the wanted person."""

    pkz: int
    name: str  # "Ida Kranz", as the record spells it
    birth_year: int
    #: the same folded name and the same full birth date (both known and compared): a duplicate
    same: bool


def current_clubs(session: Session, pkzs: Collection[int]) -> dict[int, list[str]]:
    """Each person's current clubs (whose scope decides who may read his birth date)."""
    rows = session.execute(
        select(Membership.player_pkz, Membership.club_code).where(
            Membership.player_pkz.in_(pkzs), Membership.valid_until.is_(None)
        )
    )
    clubs: dict[int, list[str]] = {pkz: [] for pkz in pkzs}
    for pkz, code in rows:
        clubs[pkz].append(code)
    return clubs


def _folded(surname: str, given_name: str) -> str:
    return fold_name(f"{given_name} {surname}".strip())


def _alike(wanted: Wanted, name: str) -> bool:
    """The same or a near folded name: one edit apart, or given name and surname swapped."""
    folded = _folded(wanted.surname, wanted.given_name)
    if DamerauLevenshtein.distance(folded, name, score_cutoff=1) <= 1:
        return True
    return bool(wanted.given_name) and fold_name(f"{wanted.surname} {wanted.given_name}") == name


def similar_records(
    session: Session, wanted: Sequence[Wanted], caller: Principal, *, exclude: Collection[int] = ()
) -> list[list[Similar]]:
    """Per wanted person, the live records of a same or near name and the same birth (see the
    module's docstring), in person-number order; ``exclude`` are never candidates (the record
    itself, when one is looked at). One read for all: a file's newcomers are checked at once."""
    years = {w.year for w in wanted if w.year is not None and w.surname}
    if not years:
        return [[] for _ in wanted]
    p = Player
    rows = session.execute(
        select(p.pkz, p.surname, p.given_name, p.search_name, p.birth_year, p.birth_date)
        .where(LIVE, p.birth_year.in_(years))
        .order_by(p.pkz)
    ).all()
    by_year: dict[int, list[tuple[int, str, str, str, date | None]]] = {}
    for pkz, surname, given, folded, year, born in rows:
        if pkz not in exclude and year is not None:
            by_year.setdefault(year, []).append((pkz, surname, given, folded, born))
    found: list[list[tuple[int, str, int, date | None, bool]]] = []
    for w in wanted:
        fitting = []
        if w.year is not None and w.surname:
            folded = _folded(w.surname, w.given_name)
            for pkz, surname, given, name, born in by_year.get(w.year, []):
                if _alike(w, name):
                    fitting.append((pkz, f"{given} {surname}".strip(), w.year, born, name == folded))
        found.append(fitting)
    dated = {f[0] for fits, w in zip(found, wanted, strict=True) if w.birth_date is not None for f in fits if f[3]}
    clubs = current_clubs(session, dated) if dated else {}
    answer: list[list[Similar]] = []
    for fits, w in zip(found, wanted, strict=True):
        similar = []
        for pkz, name, year, born, same_name in fits:
            compared = w.birth_date is not None and born is not None and caller.sees_private(clubs.get(pkz, []))
            if compared and born != w.birth_date:
                continue  # another birth date: another person
            similar.append(Similar(pkz, name, year, same=same_name and compared))
        answer.append(similar)
    return answer
