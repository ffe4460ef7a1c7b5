"""The tournament page of a team season: the league table (match points, board points,
Berliner Wertung), the team crosstable, every match and each player's boards.

Why: a league season is stored as individual games (spec §3), but a club player reads it as a
league; ``zdb.standings.stored_team`` finds the teams and matches again, this module lays them
out in the page's notation (a team's free round "spielfrei", boards won or lost "+"/"−").
A version's games never change (a correction is a new version), so its view is kept for the
next reader, as the individual standings are (``crosstable_view``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from sqlalchemy.orm import Session

from zdb.endpoints.stored_standings import stored_team_season
from zdb.standings import (
    CellKind,
    Notation,
    TeamRow,
    TeamSeason,
    board_scores,
    team_grid,
    team_standings,
)
from zdb.tournaments.standings_queries import stored_games

__all__ = ["MatchLine", "PlayerLine", "TeamLine", "TeamView", "kept_team_view", "team_view"]

#: views kept, by (tournament id, version, notation): None when the games are no team matches
KEPT_SEASONS = 64
_kept: OrderedDict[tuple[int, int, Notation], TeamView | None] = OrderedDict()
_kept_lock = threading.Lock()

_POINTS = {Fraction(1): "1", Fraction(1, 2): "½", Fraction(0): "0"}


def _number(value: Fraction) -> str:
    whole, half = divmod(value, 1)
    return f"{int(whole) if whole or not half else ''}{'½' if half else ''}"


@dataclass(frozen=True, slots=True)
class TeamLine:
    row: TeamRow
    board_points: str
    berliner_wertung: str
    cells: tuple[tuple[str, ...], ...]  # against each line in rank order: the row team's board points per match
    byes: tuple[int, ...]  # rounds "spielfrei"


@dataclass(frozen=True, slots=True)
class MatchLine:
    round: int
    home: str
    away: str
    board_points: str  # "4½:3½"
    berliner_wertung: str
    match_points: str
    note: str  # "kampflos" for a match forfeited as a whole


@dataclass(frozen=True, slots=True)
class PlayerLine:
    team: str
    board: int
    player: str  # person number
    name: str
    cells: tuple[str, ...]  # per round: "3:1" (board 3, won), "3:+" won kampflos, "" not in the lineup
    points: str
    games: int


@dataclass(frozen=True, slots=True)
class TeamView:
    rounds: int
    cycles: int  # 2: the teams met twice (two cells per pair)
    lines: tuple[TeamLine, ...]  # in rank order
    matches: tuple[MatchLine, ...]
    players: tuple[PlayerLine, ...]


def team_view(season: TeamSeason, names: Mapping[str, str], notation: Notation) -> TeamView:
    standings = team_standings(season)
    grid = team_grid(standings)
    lines = tuple(
        TeamLine(
            row,
            _number(row.board_points),
            _number(row.berliner_wertung),
            tuple(tuple(_number(cell.own) for cell in matches) for matches in grid.cells[k]),
            standings.byes(row.team),
        )
        for k, row in enumerate(standings.rows)
    )
    matches = [
        MatchLine(
            report.match.round,
            report.match.home,
            report.match.away,
            ":".join(_number(value) for value in report.board_points),
            ":".join(_number(value) for value in report.berliner_wertung),
            ":".join(str(value) for value in report.match_points),
            notation.forfeit if report.match.forfeited else "",
        )
        for report in standings.matches
    ]
    for row in standings.rows:
        matches += [MatchLine(number, row.team, notation.bye, "", "", "", "") for number in standings.byes(row.team)]
    players = []
    for score in board_scores(standings):
        by_round = {cell.round: cell for cell in score.cells}
        byes = set(standings.byes(score.team))
        cells = []
        for number in range(1, standings.rounds + 1):
            cell = by_round.get(number)
            if cell is None:
                cells.append(notation.bye if number in byes else "")
            elif cell.kind is CellKind.FORFEIT_WIN:
                cells.append(f"{cell.board}:{notation.forfeit_win}")
            elif cell.kind is CellKind.FORFEIT_LOSS:
                cells.append(f"{cell.board}:{notation.forfeit_loss}")
            else:
                cells.append(f"{cell.board}:{_POINTS[cell.points]}")
        players.append(
            PlayerLine(
                score.team,
                score.main_board,
                score.player,
                names.get(score.player, score.player),
                tuple(cells),
                _number(score.points),
                score.games,
            )
        )
    return TeamView(
        standings.rounds,
        grid.cycles,
        lines,
        tuple(sorted(matches, key=lambda line: line.round)),
        tuple(players),
    )


def kept_team_view(session: Session, tournament_id: int, version: int, notation: Notation) -> TeamView | None:
    """The view of a stored team season's ``version``; None when its games are no team matches."""
    key = (tournament_id, version, notation)
    with _kept_lock:
        found = key in _kept
        kept = _kept.get(key)
        if found:
            _kept.move_to_end(key)
    if not found:
        _, stored = stored_games(session, tournament_id)
        season = stored_team_season(stored) if stored.version == version else None
        kept = None if season is None else team_view(season, stored.names, notation)
        with _kept_lock:
            _kept[key] = kept
            while len(_kept) > KEPT_SEASONS:
                _kept.popitem(last=False)
    return kept
