"""The tables of a team season beside its league table: the team crosstable and every
player's board results.

Why: a league is published as a square table of the teams (each cell the match's board points,
seed 002: "Der Mannschaftskampf endet also 2:2"; two cells per pair when the teams meet twice)
and with each player's individual results ("Einzelbilanzen": on which boards he sat, his points
and games). Both are read from the matches of ``team_standings``; a board's player is known
only where the match gives its ``lineup``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from zdb.rating import PlayerId
from zdb.standings.cells import CellKind
from zdb.standings.model import FORFEITS, points
from zdb.standings.team import TeamStandings

__all__ = ["BoardCell", "MatchCell", "PlayerScore", "TeamGrid", "board_scores", "team_grid"]


@dataclass(frozen=True, slots=True)
class MatchCell:
    round: int
    own: Fraction  # board points of the row team
    other: Fraction
    match_points: int  # of the row team
    home: bool


@dataclass(frozen=True, slots=True)
class TeamGrid:
    teams: tuple[str, ...]  # rows and columns, in rank order
    cycles: int  # how often the teams met at most (2: a double round robin)
    cells: tuple[tuple[tuple[MatchCell, ...], ...], ...]  # cells[i][j]: teams[i] against teams[j]


def team_grid(standings: TeamStandings) -> TeamGrid:
    teams = tuple(row.team for row in standings.rows)
    index = {team: k for k, team in enumerate(teams)}
    table: list[list[list[MatchCell]]] = [[[] for _ in teams] for _ in teams]
    for report in standings.matches:
        home, away = index[report.match.home], index[report.match.away]
        (home_points, away_points), (home_mp, away_mp) = report.board_points, report.match_points
        table[home][away].append(MatchCell(report.match.round, home_points, away_points, home_mp, True))
        table[away][home].append(MatchCell(report.match.round, away_points, home_points, away_mp, False))
    met = Counter(frozenset((report.match.home, report.match.away)) for report in standings.matches)
    cycles = max(met.values(), default=1)
    return TeamGrid(teams, cycles, tuple(tuple(tuple(cell) for cell in line) for line in table))


@dataclass(frozen=True, slots=True)
class BoardCell:
    round: int
    board: int  # 1-based
    kind: CellKind  # GAME, FORFEIT_WIN or FORFEIT_LOSS
    points: Fraction
    opponent: PlayerId | None  # None: nobody sat opposite ("kampflos")


@dataclass(frozen=True, slots=True)
class PlayerScore:
    team: str
    player: PlayerId
    cells: tuple[BoardCell, ...]  # in round order

    @property
    def points(self) -> Fraction:
        return sum((cell.points for cell in self.cells), Fraction(0))

    @property
    def games(self) -> int:
        """Boards played at the board (a forfeit is no game, C.07 art. 16.1.2)."""
        return sum(1 for cell in self.cells if cell.kind is CellKind.GAME)

    @property
    def boards(self) -> tuple[int, ...]:
        return tuple(sorted({cell.board for cell in self.cells}))

    @property
    def main_board(self) -> int:
        """The board he sat at most often (the lower one on a tie): his place in the table."""
        counts = Counter(cell.board for cell in self.cells)
        return min(counts, key=lambda board: (-counts[board], board))


def board_scores(standings: TeamStandings) -> tuple[PlayerScore, ...]:
    """Every player who sat at a board, by team in rank order, then by main board."""
    cells: dict[tuple[str, PlayerId], list[BoardCell]] = {}
    for report in standings.matches:
        match = report.match
        if not match.lineup:
            continue  # the players are not known
        for board, (result, (home, away)) in enumerate(zip(match.boards, match.lineup, strict=True), start=1):
            for team, player, opponent, own in (
                (match.home, home, away, points(result.white_points)),
                (match.away, away, home, points(result.black_points)),
            ):
                if player is None:
                    continue
                kind = CellKind.GAME
                if result in FORFEITS:
                    kind = CellKind.FORFEIT_WIN if own > 0 else CellKind.FORFEIT_LOSS
                cells.setdefault((team, player), []).append(BoardCell(match.round, board, kind, own, opponent))
    rank = {row.team: k for k, row in enumerate(standings.rows)}
    scores = [
        PlayerScore(team, player, tuple(sorted(items, key=lambda c: c.round)))
        for (team, player), items in cells.items()
    ]
    return tuple(sorted(scores, key=lambda score: (rank[score.team], score.main_board, -score.points)))
