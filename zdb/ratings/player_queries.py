"""All SQL of the player read side: search (name, club, FIDE id), current clubs of a page of
players in one query, and the player card with his full history and his rating at any date.

The player card is three statements (``CARD_PLAYER``, ``CARD_MEMBERSHIPS``, ``CARD_HISTORY``)
and one function that makes the card of their rows (``card_fields``): the API runs the same
statements on its asynchronous pool in PostgreSQL (``zdb.api.hot_reads``), so that both ways
to the card share its SQL and its shape.

Names are searched in their folded form (``zdb.common.names.fold_name``): every word of the
query must occur in ``players.search_name``, so "Müller", "Mueller" and "muller" find the same
players, and "Müller, Anna" finds Anna Müller.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any, Literal

from sqlalchemy import ColumnElement, and_, bindparam, exists, func, select
from sqlalchemy.orm import Session, aliased

from zdb.auth.principal import Principal
from zdb.common.like import like_pattern
from zdb.common.names import fold_name
from zdb.common.utc import as_utc
from zdb.complaints.answers import provisional_out
from zdb.complaints.periods import provisional_marks
from zdb.editions.models import EditionRating, ListEdition
from zdb.errors import NotFoundError
from zdb.federations.models import Club
from zdb.lists.fide_queries import fide_row_condition
from zdb.lists.models import FideRatingRow, ListBaseline
from zdb.players.models import Membership, Player
from zdb.players.privacy import WITHHELD, public_name_column
from zdb.players.schemas import CurrentClub, PlayerSummary
from zdb.ratings.card_schemas import PlayerCard
from zdb.ratings.evaluation_report import FIGURE_COLUMNS
from zdb.timeline.models import Evaluation, HistoryRow, InitialState, PlayerRating
from zdb.tournaments.models import TournamentVersion

__all__ = [
    "CARD_HISTORY",
    "CARD_MEMBERSHIPS",
    "CARD_PLAYER",
    "card_fields",
    "current_clubs",
    "name_terms",
    "player_card",
    "rating_at",
    "rating_index",
    "search_players",
]

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


def rating_index(rating: int | None, index: int | None) -> int | None:
    """An index belongs to a rating: without one it is null, never 0."""
    return None if rating is None else index


def search_players(
    session: Session, *, name: str | None, club: str | None, fide_id: int | None, limit: int, offset: int
) -> tuple[list[PlayerSummary], int, datetime | None]:
    """A page of players matching every filter given, by surname; the total and the time of the
    latest change among them (a new player or a rating change)."""
    p, r = Player, PlayerRating
    conditions: list[ColumnElement[bool]] = [p.merged_into.is_(None)]  # a merged record lives on in its survivor
    for term in name_terms(name or ""):
        conditions.append(p.search_name.like(like_pattern(term), escape="\\"))
    if name:
        # A withheld name is not found by searching for it (zdb.players.privacy).
        conditions.append(p.objects_to_publication.is_(False))
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
        select(
            p.pkz,
            public_name_column(p.surname).label("surname"),
            public_name_column(p.given_name, given=True).label("given_name"),
            p.sex,
            p.birth_year,
            p.fide_id,
            p.nation,
            p.guest,
            r.rating,
            r.rating_index,
        )
        .outerjoin(r, r.player_pkz == p.pkz)
        .where(*conditions)
        .order_by(p.surname, p.given_name, p.pkz)
        .limit(limit)
        .offset(offset)
    ).all()
    clubs = current_clubs(session, [row.pkz for row in rows])
    items = [
        PlayerSummary(
            pkz=row.pkz,
            surname=row.surname,
            given_name=row.given_name,
            sex=row.sex,
            birth_year=row.birth_year,
            fide_id=row.fide_id,
            nation=row.nation,
            guest=row.guest,
            rating=row.rating,
            rating_index=rating_index(row.rating, row.rating_index),
            clubs=clubs[row.pkz],
        )
        for row in rows
    ]
    stamps = [s for s in (created, changed) if s is not None]
    return items, total, max(stamps, default=None)


#: the player card's statements, each with the parameter ``pkz``: the player with his current and
#: initial rating, his memberships (current and past), his history with every evaluation's figures
_p, _r, _i, _m, _h, _e, _v = Player, PlayerRating, InitialState, Membership, HistoryRow, Evaluation, TournamentVersion
_f, _b = FideRatingRow, ListBaseline
_er, _ed = EditionRating, ListEdition
#: the last published edition that lists the player
_lr, _le = aliased(EditionRating), aliased(ListEdition)
_LAST_EDITION = (
    select(_lr.edition_id)
    .join(_le, _le.id == _lr.edition_id)
    .where(_lr.player_pkz == _p.pkz)
    .order_by(_le.as_of.desc(), _le.id.desc())
    .limit(1)
    .correlate(_p)
    .scalar_subquery()
)
CARD_PLAYER = (
    select(
        _p.pkz,
        _p.surname,
        _p.given_name,
        _p.sex,
        _p.birth_year,
        _p.birth_date,
        _p.fide_id,
        _p.nation,
        _p.guest,
        _p.merged_into,
        _p.objects_to_publication,
        _ed.name.label("edition"),
        _ed.as_of.label("edition_as_of"),
        _er.rating.label("published_rating"),
        _er.rating_index.label("published_index"),
        _r.rating,
        _r.rating_index,
        _r.changed_at.label("rating_changed_at"),
        _i.rating.label("initial_rating"),
        _i.rating_index.label("initial_index"),
        _f.edition.label("fide_edition"),
        _f.standard.label("fide_standard"),
        _f.rapid.label("fide_rapid"),
        _f.blitz.label("fide_blitz"),
        _f.title.label("fide_title"),
        _f.women_title.label("fide_women_title"),
        _b.last_evaluation.label("list_last_evaluation"),
        _b.epoch.label("list_epoch"),
    )
    .outerjoin(_r, _r.player_pkz == _p.pkz)
    .outerjoin(_i, _i.player_pkz == _p.pkz)
    .outerjoin(_er, and_(_er.player_pkz == _p.pkz, _er.edition_id == _LAST_EDITION))
    .outerjoin(_ed, _ed.id == _er.edition_id)
    .outerjoin(_f, fide_row_condition(_p.fide_id))
    .outerjoin(_b, _b.player_pkz == _p.pkz)
    .where(_p.pkz == bindparam("pkz"))
)
CARD_MEMBERSHIPS = (
    select(_m.club_code, Club.name.label("club_name"), _m.member_no, _m.status, _m.valid_from, _m.valid_until)
    .join(Club, Club.code == _m.club_code)
    .where(_m.player_pkz == bindparam("pkz"))
    .order_by(_m.valid_from, _m.club_code)
)
CARD_HISTORY = (
    select(
        _h.event_date,
        _h.event_phase,
        _h.event_text,
        _h.tournament_id,
        _h.tournament_version,
        _h.old_rating,
        _h.old_index,
        _h.new_rating,
        _h.new_index,
        _h.evaluated,
        _v.name.label("tournament_name"),
        _e.player_pkz.label("evaluated_pkz"),
        *FIGURE_COLUMNS,
    )
    .outerjoin(
        _e,
        and_(_e.tournament_id == _h.tournament_id, _e.version == _h.tournament_version, _e.player_pkz == _h.player_pkz),
    )
    .outerjoin(_v, and_(_v.tournament_id == _h.tournament_id, _v.version == _h.tournament_version))
    .where(_h.player_pkz == bindparam("pkz"))
    .order_by(_h.event_date, _h.event_phase, _h.event_text, _h.event_id)
)
_FIGURES = tuple(column.key for column in FIGURE_COLUMNS)
#: figures that are floats even when the database hands back an integer (SQLite keeps 3.0 as 3)
_FLOATS = frozenset(column.key for column in FIGURE_COLUMNS if column.type.python_type is float)


def _figures(row: Mapping[Any, Any]) -> dict[str, Any]:
    return {name: float(row[name]) if name in _FLOATS and row[name] is not None else row[name] for name in _FIGURES}


def _entry(row: Mapping[Any, Any]) -> dict[str, Any]:
    kind = _KINDS[row["event_phase"]]
    return {
        "kind": kind,
        "date": row["event_date"],
        "event": "start rating" if kind == "start_rating" else row["event_text"],
        "tournament_id": row["tournament_id"],
        "tournament_version": row["tournament_version"],
        "tournament_name": row["tournament_name"],
        "old_rating": row["old_rating"],
        "old_index": rating_index(row["old_rating"], row["old_index"]),
        "new_rating": row["new_rating"],
        "new_index": rating_index(row["new_rating"], row["new_index"]),
        "stored": row["evaluated"],
        "evaluation": None if row["evaluated_pkz"] is None else _figures(row),
    }


def _membership(row: Mapping[Any, Any]) -> dict[str, Any]:
    return {
        "club_code": row["club_code"],
        "club_name": row["club_name"],
        "member_no": row["member_no"],
        "status": row["status"],
        "valid_from": row["valid_from"],
        "valid_until": row["valid_until"],
    }


def rating_at(history: Sequence[Mapping[Any, Any]], initial: tuple[int | None, int] | None, on: date) -> dict[str, Any]:
    """The rating after every event up to and including ``on`` (``history`` holds the card's
    entries in time-line order); before the first event, the initial list's rating."""
    last = None
    for entry in history:
        if entry["date"] > on:
            break
        last = entry
    if last is not None:
        return {
            "on": on,
            "rating": last["new_rating"],
            "rating_index": last["new_index"],
            "since": last["date"],
            "event": last["event"],
        }
    rating, index = initial if initial is not None else (None, None)
    return {"on": on, "rating": rating, "rating_index": rating_index(rating, index), "since": None, "event": None}


def _utc(moment: datetime | None) -> datetime | None:
    return None if moment is None else as_utc(moment)


def card_fields(
    pkz: int,
    player: Mapping[Any, Any] | None,
    memberships: Sequence[Mapping[Any, Any]],
    history: Sequence[Mapping[Any, Any]],
    *,
    viewer: Principal,
    at: date | None = None,
) -> dict[str, Any]:
    """The player card from the rows of ``CARD_PLAYER`` (``None``: no such player),
    ``CARD_MEMBERSHIPS`` and ``CARD_HISTORY``: plain values in the order of ``PlayerCard``'s
    fields, so that they serialise to exactly what the model does."""
    if player is None:
        raise NotFoundError(f"player {pkz} does not exist")
    clubs = [_membership(row) for row in memberships]
    visible = viewer.sees_private([ms["club_code"] for ms in clubs if ms["valid_until"] is None])
    entries = [_entry(row) for row in history]
    when = None
    if at is not None:
        initial = player["initial_index"]
        when = rating_at(entries, None if initial is None else (player["initial_rating"], initial), at)
    rating = player["rating"]
    withheld = bool(player["objects_to_publication"]) and not visible
    return {
        "pkz": player["pkz"],
        "surname": WITHHELD if withheld else player["surname"],
        "given_name": "" if withheld else player["given_name"],
        "sex": player["sex"],
        "birth_year": player["birth_year"],
        "birth_date": player["birth_date"] if visible else None,
        "private_fields_visible": visible,
        "fide_id": player["fide_id"],
        "nation": player["nation"],
        "guest": player["guest"],
        "fide": None
        if player["fide_edition"] is None
        else {
            "edition": player["fide_edition"],
            "standard": player["fide_standard"],
            "rapid": player["fide_rapid"],
            "blitz": player["fide_blitz"],
            "title": player["fide_title"],
            "women_title": player["fide_women_title"],
        },
        "list_entry": None
        if player["list_epoch"] is None
        else {
            "epoch": player["list_epoch"],
            "last_evaluation": player["list_last_evaluation"],
        },
        "rating": rating,
        "rating_index": rating_index(rating, player["rating_index"]),
        "rating_changed_at": _utc(player["rating_changed_at"]),
        "memberships": clubs,
        "history": entries,
        "rating_at": when,
        "published": None
        if player["edition"] is None
        else {
            "edition": player["edition"],
            "as_of": player["edition_as_of"],
            "rating": player["published_rating"],
            "rating_index": player["published_index"],
        },
    }


def player_card(
    session: Session, pkz: int, viewer: Principal, at: date | None = None, *, complaint_days: int | None = None
) -> PlayerCard:
    """The card; with ``complaint_days`` (the complaint period's setting) each tournament says
    whether its evaluation is still provisional, as the API's card does (``zdb.complaints.periods``)."""
    params = {"pkz": pkz}
    player = session.execute(CARD_PLAYER, params).mappings().first()
    memberships = session.execute(CARD_MEMBERSHIPS, params).mappings().all()
    history = session.execute(CARD_HISTORY, params).mappings().all()
    card = PlayerCard.model_validate(card_fields(pkz, player, memberships, history, viewer=viewer, at=at))
    if complaint_days is not None:
        ids = [e.tournament_id for e in card.history if e.tournament_id is not None]
        marks = provisional_marks(session, ids, today=datetime.now(UTC).date(), days=complaint_days)
        for entry in card.history:
            if entry.tournament_id is not None:
                entry.provisional = provisional_out(marks.get(entry.tournament_id))
    return card
