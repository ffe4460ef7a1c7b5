"""All SQL of a club's member list with ratings (``GET /clubs/{code}/ratings``), one statement
built from a list source (``zdb.editions.sources``): the live pull as the hot read's statements,
a pull ``at=`` a day or of a published ``edition=`` with the source's ratings and the memberships
of its day (so that a club's line-up for a season can be pulled as it was listed), and the rows
of both turned into the answer by one function."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from functools import cache, lru_cache
from typing import Any

from sqlalchemy import ColumnElement, DateTime, Select, String, and_, bindparam, exists, func, join, select
from sqlalchemy.orm import Session

from zdb.auth.principal import Principal
from zdb.db import is_postgres
from zdb.editions.sources import ListSource
from zdb.errors import NotFoundError
from zdb.federations.models import Club
from zdb.players.models import Membership, Player
from zdb.players.privacy import WITHHELD
from zdb.ratings.changed_since import cached_utc, second_of
from zdb.ratings.player_queries import rating_index
from zdb.ratings.provisional_rows import provisional_rows
from zdb.ratings.schemas import (
    ClubMemberRating,
)
from zdb.timeline.models import HistoryRow, PlayerRating

__all__ = [
    "club_page_fields",
    "club_params",
    "club_ratings",
    "club_ratings_from_source",
    "club_statements",
    "mark_provisional",
    "member_list",
]


#: the live list: today's ratings and today's members
_LIVE = ListSource(PlayerRating)


def _member_columns(source: ListSource) -> tuple[Any, ...]:
    """The columns of a club list's row, one for the live pull and for a pull from a list source
    (``at=`` a day, ``edition=``): the member, his rating from the source, his latest evaluation up
    to the source's day, and over all members matching the total and the latest rating change."""
    m, p, r, h = Membership, Player, source.ratings, HistoryRow
    until = [] if source.on is None else [h.event_date <= source.on]
    last_evaluation = (
        select(func.max(h.event_date))
        .where(h.player_pkz == p.pkz, h.event_phase == 1, h.evaluated.is_(True), *until)
        .correlate(p)
        .scalar_subquery()
    )
    return (
        m.member_no,
        m.status,
        p.pkz,
        p.surname,
        p.given_name,
        p.objects_to_publication,
        p.sex,
        p.birth_year,
        p.birth_date,
        p.fide_id,
        p.nation,
        r.rating,
        r.rating_index,
        r.changed_at,
        last_evaluation.label("last_evaluation"),
        func.count(p.pkz).over().label("total"),
        func.max(r.changed_at).over().label("changed"),
    )


def member_list(source: ListSource, *membership: ColumnElement[bool]) -> Select[*tuple[Any, ...]]:
    """The one statement of a member list from a list source: the memberships of the source's day
    matching ``membership``, each member with the columns of ``_member_columns``, by membership
    number. A club's pull ``at=`` a day or of an ``edition=`` pages it; the federation's files
    (``zdb.ratings.list_queries``) add their columns and order it by club first. (The live club
    list's hot statements, ``club_statements``, select the same columns from the club outward, so
    that a club without members still answers one row.)"""
    m, p, r = Membership, Player, source.ratings
    return (
        select(*_member_columns(source))
        .select_from(m)
        .join(p, p.pkz == m.player_pkz)
        .outerjoin(r, r.player_pkz == p.pkz)
        .where(*membership, *source.member_on_day())
        .order_by(m.member_no.is_(None), m.member_no, p.pkz)
    )


@cache
def club_statements(postgres: bool, *, changed_since: bool) -> tuple[Select[*tuple[Any, ...]], ...]:
    """The live club list's statements for PostgreSQL (``postgres``) or SQLite; their parameters
    are ``club_params``.

    The first gives the page of members, each row with the total and the latest rating change of
    all members matching; a club without members matching gives one row without a member, a club
    that does not exist (or a page beyond the last member) no row. Then, and only then, the
    second says whether the club exists, with that total and latest change."""
    m, p, r = Membership, Player, PlayerRating
    matching: list[ColumnElement[bool]] = _LIVE.member_on_day()
    if changed_since:
        kind = DateTime(timezone=True) if postgres else String()
        matching.append(r.changed_at >= bindparam("changed_since", type_=kind))
    members = join(m, p, p.pkz == m.player_pkz).outerjoin(r, r.player_pkz == p.pkz)
    rows = (
        select(*_member_columns(_LIVE))
        .select_from(Club)
        .outerjoin(members, and_(m.club_code == Club.code, *matching))
        .where(Club.code == bindparam("code"))
        .order_by(m.member_no.is_(None), m.member_no, p.pkz)
        .limit(bindparam("limit"))
        .offset(bindparam("offset"))
    )
    beyond = (
        select(
            func.count().label("total"),
            func.max(r.changed_at).label("changed"),
            exists().where(Club.code == bindparam("code")).label("club_exists"),
        )
        .select_from(members)
        .where(m.club_code == bindparam("code"), *matching)
    )
    return rows, beyond


def club_params(
    postgres: bool, code: str, *, changed_since: datetime | None, limit: int, offset: int
) -> dict[str, Any]:
    """The parameters of ``club_statements``: ``changed_since`` inclusive and to the second (a
    duplicate in a feed is harmless, a missed change is not); SQLite keeps the server's
    timestamps as text to the second."""
    params: dict[str, Any] = {"code": code, "limit": limit, "offset": offset}
    if changed_since is not None:
        moment = second_of(changed_since)
        params["changed_since"] = moment if postgres else moment.strftime("%Y-%m-%d %H:%M:%S")
    return params


def club_page_fields(
    code: str, rows: Sequence[Mapping[Any, Any]], beyond: Mapping[Any, Any] | None, viewer: Principal
) -> tuple[list[dict[str, Any]], int, datetime | None]:
    """The club list from the rows of ``club_statements`` (``beyond``: the second's row, asked
    for only when the first gave none): the members as plain values in the order of
    ``ClubMemberRating``'s fields, the total and the latest rating change of all members
    matching. Non-public fields only for a caller whose scope covers the club."""
    if beyond is not None:
        if not beyond["club_exists"]:
            raise NotFoundError(f"no club has the code {code!r}")
        return [], beyond["total"], beyond["changed"]
    visible = viewer.sees_private([code])
    first = rows[0]
    return [_member(row, visible) for row in rows if row["pkz"] is not None], first["total"], first["changed"]


def club_ratings(
    session: Session,
    code: str,
    viewer: Principal,
    *,
    changed_since: datetime | None,
    limit: int,
    offset: int,
    complaint_days: int | None = None,
) -> tuple[list[ClubMemberRating], int, datetime | None]:
    """Every current member of a club with his rating, index, last evaluation and FIDE data,
    in one query; by membership number. Non-public fields only for a caller whose scope covers
    the club. With ``complaint_days`` (the complaint period's setting) each member says whether
    his rating rests on a provisional evaluation (``mark_provisional``)."""
    postgres = is_postgres(session)
    rows_sql, beyond_sql = club_statements(postgres, changed_since=changed_since is not None)
    params = club_params(postgres, code, changed_since=changed_since, limit=limit, offset=offset)
    rows = session.execute(rows_sql, params).mappings().all()
    beyond = None if rows else session.execute(beyond_sql, params).mappings().one()
    items, total, changed = club_page_fields(code, rows, beyond, viewer)
    if complaint_days is not None:
        mark_provisional(session, items, days=complaint_days)
    return [ClubMemberRating.model_validate(item) for item in items], total, changed


# The club list converts every member's dates; a club's members share few distinct ones.
@lru_cache(maxsize=4096)
def _year_week(day: date | None) -> str | None:
    if day is None:
        return None
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def _member(row: Mapping[Any, Any], visible: bool) -> dict[str, Any]:
    withheld = bool(row["objects_to_publication"]) and not visible  # his club and the staff still see him
    return {
        "pkz": row["pkz"],
        "member_no": row["member_no"],
        "status": row["status"],
        "surname": WITHHELD if withheld else row["surname"],
        "given_name": "" if withheld else row["given_name"],
        "sex": row["sex"],
        "birth_year": row["birth_year"],
        "birth_date": row["birth_date"] if visible else None,
        "private_fields_visible": visible,
        "fide_id": row["fide_id"],
        "nation": row["nation"],
        "rating": row["rating"],
        "rating_index": rating_index(row["rating"], row["rating_index"]),
        "last_evaluation": _year_week(row["last_evaluation"]),
        "last_evaluation_end_date": row["last_evaluation"],
        "rating_changed_at": None if row["changed_at"] is None else cached_utc(row["changed_at"]),
        "provisional": None,  # filled for the whole page at once: ``mark_provisional``
    }


def mark_provisional(
    session: Session, items: Sequence[dict[str, Any]], *, days: int, until: date | None = None
) -> None:
    """Each member of the page says whether the rating shown rests on a provisional evaluation,
    and why (``zdb.ratings.provisional_rows``: two statements for the page, none per member)."""
    marks = provisional_rows(session, [item["pkz"] for item in items], days=days, until=until)
    for item in items:
        item["provisional"] = marks.get(item["pkz"])


def club_ratings_from_source(
    session: Session,
    code: str,
    viewer: Principal,
    source: ListSource,
    *,
    limit: int,
    offset: int,
    complaint_days: int | None = None,
) -> tuple[list[ClubMemberRating], int, datetime | None]:
    """The members of a club on the source's day with the source's ratings, by membership number;
    the last evaluation is the latest one up to that day, and with ``complaint_days`` its
    provisional mark as of today. ``NotFoundError`` for an unknown club."""
    if session.get(Club, code) is None:
        raise NotFoundError(f"no club has the code {code!r}")
    m = Membership
    matching = [m.club_code == code, *source.member_on_day()]
    total = session.execute(select(func.count()).select_from(m).where(*matching)).scalar_one()
    rows = session.execute(member_list(source, m.club_code == code).limit(limit).offset(offset)).mappings().all()
    # a page beyond the last member: the answer's total all the same, as the live pull gives it
    beyond = None if rows else {"club_exists": True, "total": total, "changed": None}
    items, _, changed = club_page_fields(code, rows, beyond, viewer)
    if complaint_days is not None:
        mark_provisional(session, items, days=complaint_days, until=source.on)
    return [ClubMemberRating.model_validate(item) for item in items], total, changed
