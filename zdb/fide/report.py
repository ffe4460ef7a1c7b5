"""FIDE's report file of a stored tournament: the current version's players and games as the
document ``zdb.formats.trf.writer`` writes as TRF16 or TRF-2026 (which one:
``zdb.fide.report_version``; what TRF26 adds: ``zdb.fide.report_trf26``).

Why here: the report is a read of the tournament as stored (its participants with their FIDE
ids and the FIDE ratings they started with, its games by round), turned into FIDE's layout by
the pure writer. What ZDB does not store is left out rather than made up; the choices, each one
what a rating officer reading the file would expect:

* a round in which a player has no game is written as a zero-point bye (``0000 - Z``): ZDB
  stores games only, so such a round gave the player nothing, and the points column (the sum of
  his games, forfeits included) agrees with it;
* the rounds are those games were played in (forfeits are games): a dated round without any
  game did not take place and is left out with its date;
* games stored without a round cannot be placed in FIDE's round columns: the report is refused
  with a message naming the first such game (a JSON submission may leave rounds out; the referee
  corrects the tournament with its rounds); so is a player with two games in one round (TRF16
  and TRF26 have one cell per player and round);
* the birth date is written as the year only (``YYYY``, which TRF16 allows): full birth dates
  are never published by ZDB, and FIDE knows its rated players' dates already;
* the FIDE rating is the one the referee submitted (the evaluation used it); where he gave none,
  the standard rating of the newest edition of FIDE's list that ZDB holds from before the start
  (before the end date when no start is stored), as FIDE rates from the list in force at the
  start; the title (open title, else the women's title) comes from the same edition. A tournament
  registered with FIDE as rapid or blitz takes the list's rapid or blitz rating instead;
* the rank is the one the tournament's page shows: points, then the tie-breaks of the pairing
  system the pairings show (``zdb.standings``; players still tied share a rank); a team season
  is ranked as the individual tournament of its games;
* a team season gets TRF16's team records ``013``: one team per club, named after the club its
  players belonged to at the end date (as its league table names them), members in start order
  (ZDB stores no board order); players without a club there are in no team;
* ``032`` is the host federation ``GER`` (ZDB is the German federation's database); city,
  type, arbiters and the registered rate of play come from the tournament's FIDE registration
  (``zdb.fide.report_header``), and are left out for a tournament not registered.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.errors import NotFoundError, ValidationError, ValidationProblem
from zdb.fide.report_header import registered_category, with_registration
from zdb.fide.report_trf26 import as_trf26
from zdb.fide.report_version import report_version
from zdb.formats.trf import TrfDocument, TrfPlayer, TrfRoundCell, TrfTeam
from zdb.formats.trf.players import CELL_WIDTH, ROUND_START
from zdb.formats.trf.writer import TrfVersion, write_trf
from zdb.lists.models import FideRatingRow
from zdb.messages import Message
from zdb.players.models import Player
from zdb.rating import ResultCode
from zdb.standings import individual_standings, standings_input_from_rows
from zdb.tournaments.models import GameRow, Participation, TournamentRecord, TournamentVersion
from zdb.tournaments.standings_queries import stored_games

__all__ = ["HOST_FEDERATION", "fide_report", "fide_report_document", "report_file_name"]

HOST_FEDERATION = "GER"

# The TRF result codes of white and black for each stored result (TRF16: 1 0 = + -).
_CODES: dict[str, tuple[str, str]] = {
    "1-0": ("1", "0"),
    "0-1": ("0", "1"),
    "1/2-1/2": ("=", "="),
    "+-": ("+", "-"),
    "-+": ("-", "+"),
    "--": ("-", "-"),
    "0-0": ("0", "0"),
    "1/2-0": ("=", "0"),
    "0-1/2": ("0", "="),
}
_SEX = {"M": "m", "F": "w"}


def _column(round_no: int) -> int:
    return ROUND_START + CELL_WIDTH * (round_no - 1)


def _cell(round_no: int, opponent: int | None, colour: str, result: str) -> TrfRoundCell:
    text = f"{opponent or 0:04d} {colour} {result}"
    return TrfRoundCell(round_no, opponent, colour, result, _column(round_no), text)


def fide_report_document(
    session: Session, tournament_id: int, trf_version: TrfVersion | None = None
) -> tuple[TrfDocument, TrfVersion]:
    """The current version of a stored tournament as a TRF document, and the TRF version it is
    for (``trf_version``, else the tournament's: ``report_version``). Not found: 404; games without a
    round: a validation error naming the game."""
    record = session.get(TournamentRecord, tournament_id)
    if record is None:
        raise NotFoundError(Message("tournament {id} does not exist", id=tournament_id))
    version = record.current_version
    head = session.get(TournamentVersion, (tournament_id, version))
    assert head is not None, "the current version exists"
    p = Participation
    participants = session.execute(
        select(
            p.position,
            p.player_pkz,
            p.birth_year,
            p.fide_rating,
            Player.surname,
            Player.given_name,
            Player.sex,
            Player.fide_id,
            Player.nation,
        )
        .join(Player, Player.pkz == p.player_pkz)
        .where(p.tournament_id == tournament_id, p.version == version)
        .order_by(p.position)
    ).all()
    g = GameRow
    games = session.execute(
        select(g.seq, g.round, g.white_pkz, g.black_pkz, g.result)
        .where(g.tournament_id == tournament_id, g.version == version)
        .order_by(g.seq)
    ).all()
    unplaced = [game for game in games if game.round is None]
    if unplaced:
        raise ValidationError(
            [
                ValidationProblem(
                    f"game {unplaced[0].seq}",
                    Message(
                        "{count} games have no round; FIDE's report needs every game's round: "
                        "correct the tournament with its rounds",
                        count=len(unplaced),
                    ),
                )
            ]
        )
    # The rounds are those games were played in: a dated round without any game did not take place
    # (forfeits are games), and a round of byes only would make the file read as unfinished.
    rounds = max((game.round for game in games), default=0)
    round_dates = tuple(date.fromisoformat(d) if d else None for d in (head.round_dates or ())[:rounds])
    listed = _fide_list(
        session,
        [row.fide_id for row in participants if row.fide_id],
        head.start_date or head.end_date,
        registered_category(session, tournament_id),
    )
    start_no = {row.player_pkz: row.position + 1 for row in participants}
    cells: dict[int, dict[int, TrfRoundCell]] = {pkz: {} for pkz in start_no}
    points = dict.fromkeys(start_no, 0.0)
    for game in games:
        for pkz in (game.white_pkz, game.black_pkz):
            if game.round in cells[pkz]:
                # TRF16 has one cell per player and round: a second game would silently replace the first
                raise ValidationError(
                    [
                        ValidationProblem(
                            f"game {game.seq}",
                            Message(
                                "start number {number} has two games in round {round}; FIDE's report has one "
                                "result per player and round: correct the tournament's rounds",
                                number=start_no[pkz],
                                round=game.round,
                            ),
                        )
                    ]
                )
        white_code, black_code = _CODES[game.result]
        code = ResultCode(game.result)
        cells[game.white_pkz][game.round] = _cell(game.round, start_no[game.black_pkz], "w", white_code)
        cells[game.black_pkz][game.round] = _cell(game.round, start_no[game.white_pkz], "b", black_code)
        points[game.white_pkz] += code.white_points
        points[game.black_pkz] += code.black_points
    standings = individual_standings(
        standings_input_from_rows(
            [str(row.player_pkz) for row in participants],
            [(game.round, str(game.white_pkz), str(game.black_pkz), game.result) for game in games],
        )
    )
    ranks = {row.player: row.rank for row in standings.rows}
    players = tuple(
        TrfPlayer(
            line=0,
            start_no=start_no[row.player_pkz],
            sex=_SEX.get(row.sex or ""),
            title=listed.get(row.fide_id or 0, (None, None))[1],
            name=", ".join(n for n in (row.surname, row.given_name) if n),
            rating=row.fide_rating or listed.get(row.fide_id or 0, (None, None))[0],
            federation=row.nation,
            fide_id=row.fide_id,
            birth_text="" if row.birth_year is None else str(row.birth_year),
            birth_year=row.birth_year,
            birth_date=None,
            points=points[row.player_pkz],
            rank=ranks.get(str(row.player_pkz)),
            cells=_row(cells[row.player_pkz], rounds),
        )
        for row in participants
    )
    document = TrfDocument(
        encoding=None,
        line_endings="CRLF",
        name=head.name or head.acronym,
        federation=HOST_FEDERATION,
        start_date=head.start_date,
        end_date=head.end_date,
        round_dates=round_dates,
        rounds=rounds,
        time_control=head.time_control,
        players=players,
        teams=_teams(session, tournament_id) if head.kind == "team_season" else (),
        tournament_type="Team" if head.kind == "team_season" else None,
    )
    document = with_registration(session, tournament_id, document)
    chosen = report_version(trf_version, head.end_date, team=head.kind == "team_season")
    if chosen == "trf26":
        document = as_trf26(session, tournament_id, document, team_season=head.kind == "team_season")
    return document, chosen


def _teams(session: Session, tournament_id: int) -> tuple[TrfTeam, ...]:
    """One team per club of the players at the end date, in the order of their first players."""
    _, stored = stored_games(session, tournament_id)
    members: dict[str, list[int]] = {}
    for number, pkz in enumerate(stored.players, 1):
        club = stored.clubs.get(pkz)
        if club is not None:
            members.setdefault(club, []).append(number)
    return tuple(TrfTeam(0, k, name, tuple(numbers), "013") for k, (name, numbers) in enumerate(members.items(), 1))


def _fide_list(
    session: Session, fide_ids: list[int], before: date, category: str = "standard"
) -> dict[int, tuple[int | None, str | None]]:
    """FIDE id -> (rating of ``category``, title) of the newest edition of FIDE's list before ``before``."""
    if not fide_ids:
        return {}
    f = FideRatingRow
    newest = (
        select(f.fide_id, func.max(f.edition).label("edition"))
        .where(f.fide_id.in_(set(fide_ids)), f.edition < before)
        .group_by(f.fide_id)
        .subquery()
    )
    rows = session.execute(
        select(f.fide_id, {"rapid": f.rapid, "blitz": f.blitz}.get(category, f.standard), f.title, f.women_title).join(
            newest, (f.fide_id == newest.c.fide_id) & (f.edition == newest.c.edition)
        )
    )
    return {fide_id: (standard or None, title or women or None) for fide_id, standard, title, women in rows}


def _row(by_round: dict[int, TrfRoundCell], rounds: int) -> tuple[TrfRoundCell, ...]:
    return tuple(by_round.get(k) or _cell(k, None, "-", "Z") for k in range(1, rounds + 1))


def fide_report(session: Session, tournament_id: int, trf_version: TrfVersion | None = None) -> str:
    """FIDE's report file of a stored tournament, as TRF16 or TRF26 (``version``, else the
    tournament's: ``zdb.fide.report_version``)."""
    return write_trf(*fide_report_document(session, tournament_id, trf_version))


def report_file_name(tournament_id: int) -> str:
    """The download's name: ``zdb-<id>-fide.trf``."""
    return f"zdb-{tournament_id}-fide.trf"
