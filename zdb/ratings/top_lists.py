"""The federation's standard top lists, as club websites embed them and the API answers them:
all, women, U20, U20 women, 50+, 50+ women, 65+, 65+ women, 75+, 75+ women.

Who is listed: the rating list's people (a current membership, in a club of the federation's
subtree when one is named), rated, not a guest, not merged away, and not withheld — a person who
objected to publication is left out of a top list rather than shown as ``***`` (a list of
names is what he objected to). Deceased people are left out too; ZDB records no death today,
so none is (the condition belongs here when it does).

Age is counted by birth year: ``year`` minus the birth year (U20: at most 19; 50+: at least 50).
Equal ratings share a rank (1, 2, 2, 4); ties are ordered by DWZ, then index (higher first),
then name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sqlalchemy import ColumnElement, exists, func, select
from sqlalchemy.orm import Session

from zdb.common.like import like_pattern
from zdb.federations.models import Club
from zdb.players.models import Membership, Player
from zdb.ratings.provisional_rows import provisional_rows
from zdb.timeline.models import PlayerRating
from zdb.tournaments.schemas import ProvisionalOut

__all__ = ["TOP_LISTS", "TopListKind", "TopListRow", "top_list"]

TopListKind = Literal[
    "all",
    "women",
    "u20",
    "u20-women",
    "50plus",
    "50plus-women",
    "65plus",
    "65plus-women",
    "75plus",
    "75plus-women",
]


@dataclass(frozen=True, slots=True)
class _Rule:
    women: bool = False
    age_min: int | None = None
    age_max: int | None = None


#: each standard list's rule, in the order the federation publishes them
TOP_LISTS: dict[TopListKind, _Rule] = {
    "all": _Rule(),
    "women": _Rule(women=True),
    "u20": _Rule(age_max=19),
    "u20-women": _Rule(women=True, age_max=19),
    "50plus": _Rule(age_min=50),
    "50plus-women": _Rule(women=True, age_min=50),
    "65plus": _Rule(age_min=65),
    "65plus-women": _Rule(women=True, age_min=65),
    "75plus": _Rule(age_min=75),
    "75plus-women": _Rule(women=True, age_min=75),
}


@dataclass(frozen=True, slots=True)
class TopListRow:
    rank: int
    pkz: int
    surname: str
    given_name: str
    birth_year: int | None
    rating: int
    rating_index: int
    club_code: str
    club_name: str
    provisional: ProvisionalOut | None = None


def top_list(
    session: Session,
    kind: TopListKind,
    *,
    federation: str,
    year: int,
    limit: int,
    complaint_days: int | None = None,
) -> list[TopListRow]:
    """The best ``limit`` of a standard list in the subtree ``federation`` (``""``: everyone).
    With ``complaint_days`` (the complaint period's setting) each row says whether the rating
    shown rests on a provisional evaluation (``zdb.ratings.provisional_rows``: two statements
    for the list)."""
    rule = TOP_LISTS[kind]
    p, r, m = Player, PlayerRating, Membership
    membership: list[ColumnElement[bool]] = [m.player_pkz == p.pkz, m.valid_until.is_(None)]
    if federation:
        membership.append(m.club_code.like(like_pattern(federation, prefix_only=True), escape="\\"))
    conditions: list[ColumnElement[bool]] = [
        r.rating.is_not(None),
        p.guest.is_(False),
        p.merged_into.is_(None),
        p.objects_to_publication.is_(False),
        exists().where(*membership),
    ]
    if rule.women:
        conditions.append(p.sex == "F")
    if rule.age_min is not None:
        conditions.append(p.birth_year <= year - rule.age_min)
    if rule.age_max is not None:
        conditions.append(p.birth_year >= year - rule.age_max)
    # the club shown: his first current membership in the subtree
    club = (
        select(m.club_code)
        .where(*membership)
        .order_by(m.valid_from, m.club_code)
        .limit(1)
        .correlate(p)
        .scalar_subquery()
    )
    ranked = (
        select(
            p.pkz,
            p.surname,
            p.given_name,
            p.birth_year,
            r.rating,
            r.rating_index,
            club.label("club_code"),
            func.rank().over(order_by=r.rating.desc()).label("rank"),
        )
        .join(r, r.player_pkz == p.pkz)
        .where(*conditions)
        .subquery()
    )
    rows = session.execute(
        select(ranked, Club.name.label("club_name"))
        .join(Club, Club.code == ranked.c.club_code)
        .order_by(
            ranked.c.rating.desc(),
            ranked.c.rating_index.desc(),
            ranked.c.surname,
            ranked.c.given_name,
            ranked.c.pkz,
        )
        .limit(limit)
    ).all()
    marks = {} if complaint_days is None else provisional_rows(session, [row.pkz for row in rows], days=complaint_days)
    return [
        TopListRow(
            rank=row.rank,
            pkz=row.pkz,
            surname=row.surname,
            given_name=row.given_name,
            birth_year=row.birth_year,
            rating=row.rating,
            rating_index=row.rating_index,
            club_code=row.club_code,
            club_name=row.club_name,
            provisional=marks.get(row.pkz),
        )
        for row in rows
    ]
