"""What the standings of a stored tournament read: the current version's players and games (with
round and board), its kind, and the club each player belonged to at its end date.

Why apart from ``queries.py``: the standings endpoint and the tournament page both turn these
rows into standings (``zdb.standings.stored`` for an individual tournament,
``zdb.standings.stored_team`` for a team season, whose teams are named after their clubs).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from zdb.errors import NotFoundError
from zdb.federations.models import Club
from zdb.players.models import Membership, Player
from zdb.players.privacy import public_name_column
from zdb.tournaments.models import GameRow, Participation, TournamentRecord, TournamentVersion

__all__ = ["StoredGames", "stored_games"]


@dataclass(frozen=True, slots=True)
class StoredGames:
    version: int
    kind: str  # "individual" or "team_season"
    players: tuple[str, ...]  # person numbers in start order
    games: tuple[tuple[int | None, int | None, str, str, str], ...]  # round, board, white, black, result
    clubs: dict[str, str]  # person number -> club name at the end date
    names: dict[str, str]  # person number -> "Surname, Given name"


def stored_games(session: Session, tournament_id: int) -> tuple[TournamentRecord, StoredGames]:
    record = session.get(TournamentRecord, tournament_id)
    if record is None:
        raise NotFoundError(f"tournament {tournament_id} does not exist")
    version = record.current_version
    head = session.get(TournamentVersion, (tournament_id, version))
    assert head is not None, "the current version exists"
    p, g = Participation, GameRow
    participants = session.execute(
        select(
            p.player_pkz,
            public_name_column(Player.surname).label("surname"),
            public_name_column(Player.given_name, given=True).label("given_name"),
        )
        .join(Player, Player.pkz == p.player_pkz)
        .where(p.tournament_id == tournament_id, p.version == version)
        .order_by(p.position)
    ).all()
    players = tuple(str(row.player_pkz) for row in participants)
    names = {str(row.player_pkz): ", ".join(n for n in (row.surname, row.given_name) if n) for row in participants}
    games = tuple(
        (r, b, str(w), str(bl), res)
        for r, b, w, bl, res in session.execute(
            select(g.round, g.board, g.white_pkz, g.black_pkz, g.result)
            .where(g.tournament_id == tournament_id, g.version == version)
            .order_by(g.seq)
        ).all()
    )
    clubs: dict[str, str] = {}
    if head.kind == "team_season":
        m = Membership
        rows = session.execute(
            select(m.player_pkz, Club.name)
            .join(Club, Club.code == m.club_code)
            .join(p, p.player_pkz == m.player_pkz)
            .where(
                p.tournament_id == tournament_id,
                p.version == version,
                m.valid_from <= head.end_date,
                or_(m.valid_until.is_(None), m.valid_until >= head.end_date),
            )
            .order_by(m.player_pkz, m.valid_from.desc(), m.club_code)
        ).all()
        for pkz, name in rows:
            clubs.setdefault(str(pkz), name)
    return record, StoredGames(version, head.kind, players, games, clubs, names)
