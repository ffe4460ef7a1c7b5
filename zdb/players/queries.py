"""All SQL of the player read side: search (name, club, FIDE id), current clubs of a page of
players in one query, and the player card with his full history and his rating at any date.

Names are searched in their folded form (``zdb.players.names.fold_name``): every word of the
query must occur in ``players.search_name``, so "Müller", "Mueller" and "muller" find the same
players, and "Müller, Anna" finds Anna Müller.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any, Literal

from sqlalchemy import ColumnElement, and_, exists, func, select
from sqlalchemy.orm import Session

from zdb.auth.principal import Principal
from zdb.errors import NotFoundError
from zdb.federations.models import Club
from zdb.players.models import Membership, Player
from zdb.players.names import fold_name
from zdb.players.schemas import CurrentClub, HistoryEntry, MembershipOut, PlayerCard, PlayerSummary, RatingAt
from zdb.ratings.models import Evaluation, HistoryRow, InitialState, PlayerRating
from zdb.tournaments.models import TournamentVersion
from zdb.tournaments.queries import FIGURE_COLUMNS, evaluation_figures, like_pattern

__all__ = ["current_clubs", "name_terms", "player_card", "rating_at", "search_players"]

_KINDS: dict[int, Literal["start_rating", "tournament", "conversion"]] = {
    0: "start_rating",
    1: "tournament",
    2: "conversion",
}


def name_terms(text: str) -> list[str]:
    """The folded words of a name query; commas separate words too ("Müller, Anna")."""
    return fold_name(text.replace(",", " ")).split()


def current_clubs(session: Session, pkzs: Sequence[int]) -> dict[int, list[CurrentClub]]:
    """The current memberships of many players in one query."""
    clubs: dict[int, list[CurrentClub]] = {pkz: [] for pkz in pkzs}
    if not pkzs:
        return clubs
    m = Membership
    rows = session.execute(
        select(m.player_pkz, m.club_code, Club.name, m.member_no, m.status)
        .join(Club, Club.code == m.club_code)
        .where(m.player_pkz.in_(list(pkzs)), m.valid_until.is_(None))
        .order_by(m.player_pkz, m.valid_from, m.club_code)
    )
    for r in rows:
        clubs[r.player_pkz].append(
            CurrentClub(club_code=r.club_code, club_name=r.name, member_no=r.member_no, status=r.status)
        )
    return clubs


def _index(rating: int | None, index: int | None) -> int | None:
    """An index belongs to a rating: without one it is null, never 0."""
    return None if rating is None else index


def search_players(
    session: Session, *, name: str | None, club: str | None, fide_id: int | None, limit: int, offset: int
) -> tuple[list[PlayerSummary], int, datetime | None]:
    """A page of players matching every filter given, by surname; the total and the time of the
    latest change among them (a new player or a rating change)."""
    p, r = Player, PlayerRating
    conditions: list[ColumnElement[bool]] = []
    for term in name_terms(name or ""):
        conditions.append(p.search_name.like(like_pattern(term), escape="\\"))
    if club is not None:
        m = Membership
        conditions.append(exists().where(m.player_pkz == p.pkz, m.club_code == club, m.valid_until.is_(None)))
    if fide_id is not None:
        conditions.append(p.fide_id == fide_id)
    total, created, changed = session.execute(
        select(func.count(), func.max(p.created_at), func.max(r.changed_at))
        .select_from(p)
        .outerjoin(r, r.player_pkz == p.pkz)
        .where(*conditions)
    ).one()
    rows = session.execute(
        select(p.pkz, p.surname, p.given_name, p.sex, p.birth_year, p.fide_id, p.nation, p.guest, r.rating,
               r.rating_index)
        .outerjoin(r, r.player_pkz == p.pkz)
        .where(*conditions)
        .order_by(p.surname, p.given_name, p.pkz)
        .limit(limit)
        .offset(offset)
    ).all()  # fmt: skip
    clubs = current_clubs(session, [row.pkz for row in rows])
    items = [
        PlayerSummary(
            pkz=row.pkz, surname=row.surname, given_name=row.given_name, sex=row.sex, birth_year=row.birth_year,
            fide_id=row.fide_id, nation=row.nation, guest=row.guest, rating=row.rating,
            rating_index=_index(row.rating, row.rating_index), clubs=clubs[row.pkz],
        )
        for row in rows
    ]  # fmt: skip
    stamps = [s for s in (created, changed) if s is not None]
    return items, total, max(stamps, default=None)


def _history(session: Session, pkz: int) -> list[HistoryEntry]:
    h, e, v = HistoryRow, Evaluation, TournamentVersion
    rows = session.execute(
        select(h.event_date, h.event_phase, h.event_text, h.tournament_id, h.tournament_version, h.old_rating,
               h.old_index, h.new_rating, h.new_index, h.evaluated, v.name.label("tournament_name"),
               e.player_pkz.label("evaluated_pkz"), *FIGURE_COLUMNS)
        .outerjoin(e, and_(e.tournament_id == h.tournament_id, e.version == h.tournament_version,
                           e.player_pkz == h.player_pkz))
        .outerjoin(v, and_(v.tournament_id == h.tournament_id, v.version == h.tournament_version))
        .where(h.player_pkz == pkz)
        .order_by(h.event_date, h.event_phase, h.event_text, h.event_id)
    ).all()  # fmt: skip
    return [_entry(row) for row in rows]


def _entry(row: Any) -> HistoryEntry:
    kind = _KINDS[row.event_phase]
    return HistoryEntry(
        kind=kind,
        date=row.event_date,
        event="start rating" if kind == "start_rating" else row.event_text,
        tournament_id=row.tournament_id,
        tournament_version=row.tournament_version,
        tournament_name=row.tournament_name,
        old_rating=row.old_rating,
        old_index=_index(row.old_rating, row.old_index),
        new_rating=row.new_rating,
        new_index=_index(row.new_rating, row.new_index),
        stored=row.evaluated,
        evaluation=None if row.evaluated_pkz is None else evaluation_figures(row._mapping),
    )


def rating_at(history: Sequence[HistoryEntry], initial: tuple[int | None, int] | None, on: date) -> RatingAt:
    """The rating after every event up to and including ``on`` (the history is in time-line
    order); before the first event, the initial list's rating."""
    last = None
    for entry in history:
        if entry.date > on:
            break
        last = entry
    if last is not None:
        return RatingAt(on=on, rating=last.new_rating, rating_index=last.new_index, since=last.date, event=last.event)
    rating, index = initial if initial is not None else (None, None)
    return RatingAt(on=on, rating=rating, rating_index=_index(rating, index), since=None, event=None)


def player_card(session: Session, pkz: int, viewer: Principal, at: date | None = None) -> PlayerCard:
    player = session.get(Player, pkz)
    if player is None:
        raise NotFoundError(f"player {pkz} does not exist")
    current = session.get(PlayerRating, pkz)
    m = Membership
    memberships = [
        MembershipOut(
            club_code=r.club_code, club_name=r.name, member_no=r.member_no, status=r.status,
            valid_from=r.valid_from, valid_until=r.valid_until,
        )
        for r in session.execute(
            select(m.club_code, Club.name, m.member_no, m.status, m.valid_from, m.valid_until)
            .join(Club, Club.code == m.club_code)
            .where(m.player_pkz == pkz)
            .order_by(m.valid_from, m.club_code)
        )
    ]  # fmt: skip
    visible = viewer.sees_private([ms.club_code for ms in memberships if ms.valid_until is None])
    history = _history(session, pkz)
    when = None
    if at is not None:
        initial = session.get(InitialState, pkz)
        when = rating_at(history, None if initial is None else (initial.rating, initial.rating_index), at)
    rating = None if current is None else current.rating
    return PlayerCard(
        pkz=player.pkz,
        surname=player.surname,
        given_name=player.given_name,
        sex=player.sex,
        birth_year=player.birth_year,
        birth_date=player.birth_date if visible else None,
        private_fields_visible=visible,
        fide_id=player.fide_id,
        nation=player.nation,
        guest=player.guest,
        rating=rating,
        rating_index=None if current is None else _index(rating, current.rating_index),
        rating_changed_at=None if current is None else current.changed_at,
        memberships=memberships,
        history=history,
        rating_at=when,
    )
