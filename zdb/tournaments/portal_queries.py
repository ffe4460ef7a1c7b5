"""Tournaments as the rating portal's REST interface answers them (``/dwz/tournaments…``): the
list by rating state and period, one tournament, its evaluation as the portal shows it, its
matches with White's expectation. The read statements behind the portal door (``zdb.portal``).

A tournament's ``uuid`` there is ZDB's tournament id (kept across corrections), as text. Its
rating state comes from the stored status (``zdb.tournaments.models``): ``RATED`` an evaluated
tournament, ``PENDING`` one submitted (or corrected) and not yet evaluated, ``UNRATED`` one
withdrawn (it is not rated; the portal's own meaning, a tournament not to be rated, has no
other counterpart here). Absent values are absent keys, never nulls.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from sqlalchemy import ColumnElement, Select, and_, case, func, literal, select
from sqlalchemy.orm import Session, aliased

from zdb.common.like import like_pattern
from zdb.errors import NotFoundError
from zdb.federations.models import Club
from zdb.players.models import Membership, Player
from zdb.players.privacy import WITHHELD, public_name_column
from zdb.rating import expected_score
from zdb.timeline.models import Evaluation
from zdb.tournaments.models import GameRow, Participation, TournamentRecord, TournamentVersion

__all__ = [
    "RATING_STATES",
    "RatingState",
    "TournamentFilter",
    "evaluation",
    "list_tournaments",
    "matches",
    "tournament",
]

RatingState = Literal["RATED", "UNRATED", "PENDING"]
#: the interface's rating state of each stored status
RATING_STATES: dict[str, RatingState] = {"evaluated": "RATED", "received": "PENDING", "withdrawn": "UNRATED"}
_STATUS_OF_STATE = {state: status for status, state in RATING_STATES.items()}

#: ZDB's result codes as the interface names them. ``0-0`` (both lose, spec §3) has no name in
#: the interface's list; it is answered as ``ZERO_ZERO``, following the list's pattern.
RESULTS = {
    "1-0": "WHITE_WINS",
    "0-1": "BLACK_WINS",
    "1/2-1/2": "REMIS",
    "+-": "PLUS_MINUS",
    "-+": "MINUS_PLUS",
    "--": "MINUS_MINUS",
    "0-0": "ZERO_ZERO",
    "1/2-0": "HALF_ZERO",
    "0-1/2": "ZERO_HALF",
}
_PLAYED = frozenset({"1-0", "0-1", "1/2-1/2"})


def _present(values: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


@dataclass(frozen=True, slots=True)
class TournamentFilter:
    rating_state: RatingState | None = None
    from_date: date | None = None
    to_date: date | None = None
    vkz: str | None = None


_t, _v, _pa, _g = TournamentRecord, TournamentVersion, Participation, GameRow
_CURRENT = and_(_v.tournament_id == _t.id, _v.version == _t.current_version)
_PLAYER_COUNT = (
    select(func.count())
    .where(_pa.tournament_id == _t.id, _pa.version == _t.current_version)
    .correlate(_t)
    .scalar_subquery()
)
_MATCH_COUNT = (
    select(func.count())
    .where(_g.tournament_id == _t.id, _g.version == _t.current_version)
    .correlate(_t)
    .scalar_subquery()
)
_LAST_ROUND = (
    select(func.max(_g.round))
    .where(_g.tournament_id == _t.id, _g.version == _t.current_version)
    .correlate(_t)
    .scalar_subquery()
)


def _head() -> Select[Any]:
    return select(
        _t.id,
        _t.status,
        _v.acronym,
        _v.name,
        _v.federation_prefix,
        _v.start_date,
        _v.end_date,
        _v.round_dates,
        _PLAYER_COUNT.label("players"),
        _MATCH_COUNT.label("games"),
        _LAST_ROUND.label("last_round"),
    ).join(_v, _CURRENT)


def _tournament(row: Any) -> dict[str, Any]:
    # The number of rounds: the last round a game was played in, else the round dates given.
    rounds = row.last_round if row.last_round is not None else len(row.round_dates or []) or None
    return _present(
        {
            "uuid": str(row.id),
            "label": row.name or row.acronym,
            "acronym": row.acronym,
            "vkz": row.federation_prefix,
            "startdate": None if row.start_date is None else row.start_date.isoformat(),
            "enddate": row.end_date.isoformat(),
            "rounds": rounds,
            "playerCount": row.players,
            "matchCount": row.games,
            "ratingState": RATING_STATES[row.status],
        }
    )


def _conditions(wanted: TournamentFilter) -> list[ColumnElement[bool]]:
    conditions: list[ColumnElement[bool]] = []
    if wanted.rating_state is not None:
        conditions.append(_t.status == _STATUS_OF_STATE[wanted.rating_state])
    if wanted.from_date is not None:
        conditions.append(_v.end_date >= wanted.from_date)
    if wanted.to_date is not None:
        conditions.append(_v.end_date <= wanted.to_date)
    if wanted.vkz:
        conditions.append(_v.federation_prefix.like(like_pattern(wanted.vkz, prefix_only=True), escape="\\"))
    return conditions


def list_tournaments(
    session: Session, wanted: TournamentFilter, *, limit: int, offset: int
) -> tuple[list[dict[str, Any]], int]:
    """A page of tournaments (their current versions), latest end first; and how many match."""
    conditions = _conditions(wanted)
    total = session.execute(select(func.count()).select_from(_t).join(_v, _CURRENT).where(*conditions)).scalar_one()
    rows = session.execute(
        _head().where(*conditions).order_by(_v.end_date.desc(), _v.acronym, _t.id).limit(limit).offset(offset)
    ).all()
    return [_tournament(row) for row in rows], total


def _row(session: Session, tournament_id: int) -> Any:
    row = session.execute(_head().where(_t.id == tournament_id)).first()
    if row is None:
        raise NotFoundError(f"tournament {tournament_id} does not exist")
    return row


def tournament(session: Session, tournament_id: int) -> dict[str, Any]:
    """One tournament, flat; ``NotFoundError`` for an unknown id."""
    return _tournament(_row(session, tournament_id))


def _display(rating: int | None, index: int | None) -> str:
    """A DWZ as the portal shows it: ``1623-12``; no rating: an empty text."""
    if rating is None:
        return ""
    return f"{rating}-{index}" if index is not None else str(rating)


def _decimal(value: float, places: int) -> str:
    """A German decimal as the portal's pages show it (``2,345``)."""
    return f"{value:.{places}f}".replace(".", ",")


def _points(value: float) -> str:
    return _decimal(value, 1) if value % 1 else str(int(value))


def _club_names(session: Session, pkzs: list[int]) -> dict[int, str]:
    """Each person's first current club, by the start of its membership."""
    m = Membership
    names: dict[int, str] = {}
    rows = session.execute(
        select(m.player_pkz, Club.name)
        .join(Club, Club.code == m.club_code)
        .where(m.player_pkz.in_(pkzs), m.valid_until.is_(None))
        .order_by(m.player_pkz, m.valid_from, m.club_code)
    )
    for pkz, name in rows:
        names.setdefault(pkz, name)
    return names


def evaluation(session: Session, tournament_id: int) -> dict[str, Any]:
    """``{tournament, players}``: the stored evaluation of the tournament's evaluated version in
    the submission's order, with the display strings of the portal's pages: old and new DWZ as
    ``rating-index``, a non-member's new value in brackets (he is not rated into the list), the
    expected points with three decimals. A tournament not (yet) evaluated has no players."""
    row = _row(session, tournament_id)
    version = session.execute(select(_t.evaluated_version).where(_t.id == tournament_id)).scalar_one()
    players: list[dict[str, Any]] = []
    if version is not None and row.status == "evaluated":
        e, p = Evaluation, Player
        rows = session.execute(
            select(
                e.player_pkz,
                p.external_id,
                public_name_column(p.surname).label("surname"),
                public_name_column(p.given_name, given=True).label("given_name"),
                e.member,
                e.r0,
                e.i0,
                e.w,
                e.n,
                e.we,
                e.e,
                e.rh,
                e.rn,
                e.i_new,
            )
            .join(p, p.pkz == e.player_pkz)
            .where(e.tournament_id == tournament_id, e.version == version)
            .order_by(e.position)
        ).all()
        clubs = _club_names(session, [r.player_pkz for r in rows])
        for r in rows:
            new = _display(r.rn, r.i_new)
            players.append(
                _present(
                    {
                        "personId": r.external_id or str(r.player_pkz),
                        "firstname": r.given_name,
                        "lastname": r.surname,
                        "clubName": clubs.get(r.player_pkz),
                        "ratingOld": r.r0,
                        "indexOld": r.i0 if r.r0 is not None else None,
                        "ratingOldDisplayString": _display(r.r0, r.i0),
                        "wins": float(r.w),
                        "winsDisplayString": _points(float(r.w)),
                        "numberOfGames": r.n,
                        "winsExpected": None if r.we is None else round(float(r.we), 3),
                        "winsExpectedDisplayString": "" if r.we is None else _decimal(float(r.we), 3),
                        "coefficient": r.e,
                        "performance": r.rh,
                        "ratingNew": r.rn,
                        "indexNew": r.i_new if r.rn is not None else None,
                        "ratingNewDisplayString": new if r.member or not new else f"({new})",
                        "member": bool(r.member),
                    }
                )
            )
    return {"tournament": _tournament(row), "players": players}


def matches(
    session: Session, tournament_id: int, *, round_no: int | None, limit: int, offset: int
) -> tuple[list[dict[str, Any]], int]:
    """A page of the current version's games, by round and board; ``expected`` is White's
    expected score (spec §4) from both players' ratings before the tournament, for a game
    played at the board between two rated players of the evaluated version."""
    row = _row(session, tournament_id)
    current, evaluated = session.execute(
        select(_t.current_version, _t.evaluated_version).where(_t.id == tournament_id)
    ).one()
    g = GameRow
    white, black = aliased(Player), aliased(Player)
    ew, eb = aliased(Evaluation), aliased(Evaluation)
    rated = evaluated == current and row.status == "evaluated"
    conditions: list[ColumnElement[bool]] = [g.tournament_id == tournament_id, g.version == current]
    if round_no is not None:
        conditions.append(g.round == round_no)
    total = session.execute(select(func.count()).select_from(g).where(*conditions)).scalar_one()

    def side(person: Any, figures: Any, column: Any) -> list[Any]:
        return [
            person.pkz.label(f"{column}_pkz"),
            person.external_id.label(f"{column}_id"),
            # the public name of the aliased person (``zdb.players.privacy``)
            case((person.objects_to_publication.is_(True), literal(WITHHELD)), else_=person.surname).label(
                f"{column}_surname"
            ),
            case((person.objects_to_publication.is_(True), literal("")), else_=person.given_name).label(
                f"{column}_given"
            ),
            figures.r0.label(f"{column}_r0"),
        ]

    query = (
        select(g.round, g.board, g.result, *side(white, ew, "white"), *side(black, eb, "black"))
        .join(white, white.pkz == g.white_pkz)
        .join(black, black.pkz == g.black_pkz)
        .outerjoin(ew, and_(ew.tournament_id == g.tournament_id, ew.version == g.version, ew.player_pkz == g.white_pkz))
        .outerjoin(eb, and_(eb.tournament_id == g.tournament_id, eb.version == g.version, eb.player_pkz == g.black_pkz))
        .where(*conditions)
        .order_by(g.round, g.board, g.seq)
        .limit(limit)
        .offset(offset)
    )
    games = []
    for r in session.execute(query).mappings():
        expected = None
        if rated and r["result"] in _PLAYED and r["white_r0"] is not None and r["black_r0"] is not None:
            expected = round(expected_score(r["white_r0"] - r["black_r0"]), 3)
        games.append(
            _present(
                {
                    "round": r["round"],
                    "board": r["board"],
                    "result": RESULTS[r["result"]],
                    "expected": expected,
                    "whitePlayer": _side(r, "white"),
                    "blackPlayer": _side(r, "black"),
                }
            )
        )
    return games, total


def _side(row: Mapping[Any, Any], column: str) -> dict[str, Any]:
    return _present(
        {
            "personId": row[f"{column}_id"] or str(row[f"{column}_pkz"]),
            "firstname": row[f"{column}_given"],
            "lastname": row[f"{column}_surname"],
            "rating": row[f"{column}_r0"],
        }
    )
