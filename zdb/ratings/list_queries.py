"""The SQL behind the federation's files for club software (``zdb.formats.dsb_files``).

Each file is one set-based query, whatever its size: the members of a whole federation with
their ratings and last evaluation, its clubs, its federations. The members are the club lists'
own statement (``zdb.ratings.club_list_queries.member_list``: who is listed on the source's day,
with which rating), so that a file and a club's pull can never list different people. The last
evaluation is the latest evaluated tournament of the player's history, as the club list's; its
tournament is picked by a window over the history rows of exactly the players listed. Only public
data leaves this module: the names of those who object to publication are withheld in the
statement, and the birth date is never read from its rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from zdb.common.like import like_pattern
from zdb.editions.sources import ListSource
from zdb.errors import NotFoundError
from zdb.federations.models import Club, Federation
from zdb.formats.dsb_files import ClubRow, FederationRow, MemberRow
from zdb.lists.fide_queries import fide_row_condition, listed_week_date
from zdb.lists.models import FideRatingRow, ListBaseline
from zdb.players.models import Membership, Player
from zdb.players.privacy import public_name_column
from zdb.ratings.club_list_queries import member_list
from zdb.timeline.models import HistoryRow, PlayerRating

__all__ = ["club_members", "federation_clubs", "federation_members", "federations_of", "require_federation"]


def require_federation(session: Session, prefix: str) -> None:
    """``NotFoundError`` unless a federation has this club-code prefix."""
    if session.get(Federation, prefix) is None:
        raise NotFoundError(f"no federation has the prefix {prefix!r}")


def _members(
    session: Session, membership: Sequence[ColumnElement[bool]], source: ListSource | None = None
) -> tuple[list[MemberRow], datetime | None]:
    """The current memberships matching ``membership`` with their players' public data, by club
    and membership number; and the latest rating change among them. With a ``source``: its
    ratings, the memberships of its day, the last evaluation up to that day."""
    source = source or ListSource(PlayerRating)
    m, p, h = Membership, Player, HistoryRow
    current = [*source.member_on_day(), *membership]
    until = [] if source.on is None else [h.event_date <= source.on]
    listed = select(m.player_pkz).where(*current)
    ranked = (
        select(
            h.player_pkz,
            h.event_date,
            h.tournament_id,
            func.row_number()
            .over(partition_by=h.player_pkz, order_by=(h.event_date.desc(), h.event_text.desc(), h.event_id.desc()))
            .label("n"),
        )
        .where(h.event_phase == 1, h.evaluated.is_(True), h.player_pkz.in_(listed), *until)
        .subquery()
    )
    last = select(ranked.c.player_pkz, ranked.c.event_date, ranked.c.tournament_id).where(ranked.c.n == 1).subquery()
    f, b = FideRatingRow, ListBaseline
    # the club lists' own statement (``member_list``), with what the files add, by club first
    rows = session.execute(
        member_list(source, *membership)
        .add_columns(
            m.club_code,
            p.external_id,
            public_name_column(p.surname).label("public_surname"),
            public_name_column(p.given_name, given=True).label("public_given_name"),
            last.c.event_date,
            last.c.tournament_id,
            f.standard.label("fide_rating"),
            f.title.label("fide_title"),
            f.women_title.label("fide_women_title"),
            f.rapid.label("fide_rapid"),
            f.blitz.label("fide_blitz"),
            b.last_evaluation.label("listed_week"),
        )
        .outerjoin(last, last.c.player_pkz == p.pkz)
        .outerjoin(f, fide_row_condition(p.fide_id))
        .outerjoin(b, b.player_pkz == p.pkz)
        .order_by(None)
        .order_by(m.club_code, m.member_no.is_(None), m.member_no, p.pkz)
    ).all()
    members = [
        MemberRow(
            pkz=row.pkz,
            club_code=row.club_code,
            member_no=row.member_no,
            status=row.status,
            surname=row.public_surname,
            given_name=row.public_given_name,
            sex=row.sex,
            birth_year=row.birth_year,
            rating=row.rating,
            rating_index=None if row.rating is None else row.rating_index,
            # the list's last evaluation holds until a tournament here replaces it
            last_evaluation=row.event_date or listed_week_date(row.listed_week),
            last_tournament_id=row.tournament_id,
            fide_id=row.fide_id,
            fide_nation=row.nation,
            fide_rating=row.fide_rating,
            fide_title=row.fide_title,
            external_id=row.external_id,
            fide_women_title=row.fide_women_title,
            fide_rapid=row.fide_rapid,
            fide_blitz=row.fide_blitz,
        )
        for row in rows
    ]
    changed = max((row.changed_at for row in rows if row.changed_at is not None), default=None)
    return members, changed


def federation_members(
    session: Session, prefix: str, source: ListSource | None = None
) -> tuple[list[MemberRow], datetime | None]:
    """Every current membership in a club of the subtree ``prefix`` (``""``: the whole DSB)."""
    condition = [Membership.club_code.like(like_pattern(prefix, prefix_only=True), escape="\\")] if prefix else []
    return _members(session, condition, source)


def club_members(
    session: Session, code: str, source: ListSource | None = None
) -> tuple[list[MemberRow], datetime | None]:
    """The current members of one club (with a ``source``: its day's members and ratings);
    ``NotFoundError`` for an unknown club."""
    if session.get(Club, code) is None:
        raise NotFoundError(f"no club has the code {code!r}")
    return _members(session, [Membership.club_code == code], source)


def federation_clubs(session: Session, prefix: str) -> list[ClubRow]:
    """The clubs of the subtree ``prefix``, by code."""
    c = Club
    query = select(c.code, c.name, c.federation_prefix).order_by(c.code)
    if prefix:
        query = query.where(c.code.like(like_pattern(prefix, prefix_only=True), escape="\\"))
    return [
        ClubRow(code=row.code, name=row.name, federation_prefix=row.federation_prefix) for row in session.execute(query)
    ]


def federations_of(session: Session, prefix: str) -> list[FederationRow]:
    """The federation ``prefix`` and every federation below it, by prefix."""
    f = Federation
    query = select(f.prefix, f.name, f.parent_prefix).order_by(f.prefix)
    if prefix:
        query = query.where(f.prefix.like(like_pattern(prefix, prefix_only=True), escape="\\"))
    return [
        FederationRow(prefix=row.prefix, name=row.name, parent_prefix=row.parent_prefix)
        for row in session.execute(query)
    ]
