"""Team seasons: match points, board points, and the Berliner Wertung of every match.

A league season is a list of team matches, each a list of board results (home team's result
first). The season's table ranks by match points, then board points; the Berliner Wertung
(seed 002) is reported for every match, the figure a drawn match is decided by where the
league's rules ask for it.

Berliner Wertung (seed 002): with n boards, a win on board 1 is worth n points, on board 2
n - 1, down to 1 point on the last board; a draw gives each team half the board's points.
Generalised to every result code by weighting each team's game points with the board's worth,
so that a double forfeit gives neither team anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from zdb.rating import InvalidInputError, ResultCode
from zdb.standings.model import points

__all__ = [
    "MatchPoints",
    "MatchReport",
    "TeamMatch",
    "TeamRow",
    "TeamSeason",
    "TeamStandings",
    "berliner_wertung",
    "board_points",
    "team_standings",
]


@dataclass(frozen=True, slots=True)
class MatchPoints:
    """Points for winning, drawing and losing a match (2-1-0 in the federation's leagues)."""

    win: int = 2
    draw: int = 1
    loss: int = 0


@dataclass(frozen=True, slots=True)
class TeamMatch:
    round: int
    home: str
    away: str
    boards: tuple[ResultCode, ...]  # board 1 first; "1-0" means the home team's player won


@dataclass(frozen=True, slots=True)
class TeamSeason:
    teams: tuple[str, ...]
    matches: tuple[TeamMatch, ...]
    match_points: MatchPoints = MatchPoints()

    def __post_init__(self) -> None:
        if len(set(self.teams)) != len(self.teams):
            duplicate = next(team for team in self.teams if self.teams.count(team) > 1)
            raise InvalidInputError("teams", f"team {duplicate!r} is listed twice")
        for k, match in enumerate(self.matches):
            for side in ("home", "away"):
                if getattr(match, side) not in self.teams:
                    raise InvalidInputError(f"matches[{k}].{side}", f"unknown team {getattr(match, side)!r}")
            if match.home == match.away:
                raise InvalidInputError(f"matches[{k}]", f"team {match.home!r} plays itself")
            if not match.boards:
                raise InvalidInputError(f"matches[{k}].boards", "a match needs at least one board")


def board_points(boards: Sequence[ResultCode]) -> tuple[Fraction, Fraction]:
    """The match score in board points (seed 002: "Der Mannschaftskampf endet also 2:2")."""
    home = sum((points(result.white_points) for result in boards), Fraction(0))
    away = sum((points(result.black_points) for result in boards), Fraction(0))
    return home, away


def berliner_wertung(boards: Sequence[ResultCode]) -> tuple[Fraction, Fraction]:
    """seed 002: board k of n is worth n - k + 1 points, won in full or split by a draw."""
    count = len(boards)
    home = away = Fraction(0)
    for position, result in enumerate(boards):
        worth = count - position
        home += worth * points(result.white_points)
        away += worth * points(result.black_points)
    return home, away


@dataclass(frozen=True, slots=True)
class MatchReport:
    match: TeamMatch
    board_points: tuple[Fraction, Fraction]
    berliner_wertung: tuple[Fraction, Fraction]
    match_points: tuple[int, int]


@dataclass(frozen=True, slots=True)
class TeamRow:
    rank: int
    team: str
    matches: int
    wins: int
    draws: int
    losses: int
    match_points: int
    board_points: Fraction


@dataclass(frozen=True, slots=True)
class TeamStandings:
    rows: tuple[TeamRow, ...]  # in rank order
    matches: tuple[MatchReport, ...]  # in round order, then as given


def _match_points(scores: tuple[Fraction, Fraction], system: MatchPoints) -> tuple[int, int]:
    home, away = scores
    if home > away:
        return system.win, system.loss
    if home < away:
        return system.loss, system.win
    return system.draw, system.draw


@dataclass(slots=True)
class _Tally:
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    match_points: int = 0
    board_points: Fraction = Fraction(0)

    @property
    def key(self) -> tuple[int, Fraction]:
        """The table's order: match points, then board points."""
        return self.match_points, self.board_points

    def add(self, own: Fraction, other: Fraction, match_points: int) -> None:
        self.matches += 1
        if own > other:
            self.wins += 1
        elif own == other:
            self.draws += 1
        else:
            self.losses += 1
        self.match_points += match_points
        self.board_points += own


def team_standings(season: TeamSeason) -> TeamStandings:
    """The season's table (match points, then board points; ties share the rank) and every match."""
    reports = []
    tallies = {team: _Tally() for team in season.teams}
    for match in sorted(season.matches, key=lambda m: m.round):
        home, away = board_points(match.boards)
        awarded = _match_points((home, away), season.match_points)
        reports.append(MatchReport(match, (home, away), berliner_wertung(match.boards), awarded))
        tallies[match.home].add(home, away, awarded[0])
        tallies[match.away].add(away, home, awarded[1])
    ordered = sorted(season.teams, key=lambda team: tallies[team].key, reverse=True)
    rows: list[TeamRow] = []
    for position, team in enumerate(ordered, start=1):
        tally = tallies[team]
        tied = bool(rows) and tallies[rows[-1].team].key == tally.key
        rank = rows[-1].rank if tied else position
        rows.append(
            TeamRow(
                rank, team, tally.matches, tally.wins, tally.draws, tally.losses, tally.match_points, tally.board_points
            )
        )
    return TeamStandings(tuple(rows), tuple(reports))
