"""Team seasons: match points, board points, and the Berliner Wertung of every match.

A league season is a list of team matches, each a list of board results (home team's result
first) and, where known, who sat at each board (``lineup``). The season's table ranks by match
points, then board points; the Berliner Wertung (seed 002) is reported for every match, the
figure a drawn match is decided by where the league's rules ask for it, and summed over the
season in every team's row.

Berliner Wertung (seed 002): with n boards, a win on board 1 is worth n points, on board 2
n - 1, down to 1 point on the last board; a draw gives each team half the board's points.
Generalised to every result code by weighting each team's game points with the board's worth,
so that a double forfeit gives neither team anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from zdb.rating import InvalidInputError, PlayerId, ResultCode
from zdb.standings.model import points

__all__ = [
    "MatchPoints",
    "MatchReport",
    "TeamBye",
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
    #: (home player, away player) for every board, board 1 first; None: nobody sat there (the
    #: board was lost or won by forfeit, "kampflos"). Empty when the players are not known.
    lineup: tuple[tuple[PlayerId | None, PlayerId | None], ...] = ()
    #: a match forfeited as a whole ("+-", "-+", "--": TRF26 ``330``); "--" is a loss for both
    forfeited: ResultCode | None = None


@dataclass(frozen=True, slots=True)
class TeamBye:
    """A round without a match ("spielfrei") that awards points, as the tournament's rules say
    (TRF26 ``320``: a team's pairing-allocated bye with its match and game points)."""

    round: int
    team: str
    match_points: int
    board_points: Fraction


@dataclass(frozen=True, slots=True)
class TeamSeason:
    teams: tuple[str, ...]
    matches: tuple[TeamMatch, ...]
    match_points: MatchPoints = MatchPoints()
    byes: tuple[TeamBye, ...] = ()

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
            if not match.boards and match.forfeited is None:
                raise InvalidInputError(f"matches[{k}].boards", "a match needs at least one board")
            if match.forfeited not in (None, *_FORFEITED):
                raise InvalidInputError(f"matches[{k}].forfeited", f"{match.forfeited} is no forfeit of a match")
            if match.lineup and len(match.lineup) != len(match.boards):
                problem = f"{len(match.lineup)} lineup entries for {len(match.boards)} boards"
                raise InvalidInputError(f"matches[{k}].lineup", problem)


_FORFEITED = (ResultCode.WHITE_WINS_FORFEIT, ResultCode.BLACK_WINS_FORFEIT, ResultCode.DOUBLE_FORFEIT)


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
    berliner_wertung: Fraction = Fraction(0)  # seed 002: the sum over the team's matches


@dataclass(frozen=True, slots=True)
class TeamStandings:
    rows: tuple[TeamRow, ...]  # in rank order
    matches: tuple[MatchReport, ...]  # in round order, then as given
    rounds: int = 0  # the season's last round

    def row(self, team: str) -> TeamRow:
        for row in self.rows:
            if row.team == team:
                return row
        raise KeyError(team)

    def byes(self, team: str) -> tuple[int, ...]:
        """The rounds without a match for ``team`` ("spielfrei": the free round of an odd league)."""
        playing = {report.match.round for report in self.matches if team in (report.match.home, report.match.away)}
        return tuple(number for number in range(1, self.rounds + 1) if number not in playing)


def _outcomes(scores: tuple[Fraction, Fraction], forfeited: ResultCode | None) -> tuple[int, int]:
    """1 won, 0 drawn, -1 lost for home and away: by board points, or by a forfeit of the whole
    match (TRF26 ``330``), where "--" is a loss for both."""
    if forfeited is not None:
        return (1 if forfeited.white_points else -1), (1 if forfeited.black_points else -1)
    home, away = scores
    return (home > away) - (home < away), (away > home) - (away < home)


def _match_points(outcome: int, system: MatchPoints) -> int:
    return system.win if outcome > 0 else system.draw if outcome == 0 else system.loss


@dataclass(slots=True)
class _Tally:
    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    match_points: int = 0
    board_points: Fraction = Fraction(0)
    berliner_wertung: Fraction = Fraction(0)

    @property
    def key(self) -> tuple[int, Fraction]:
        """The table's order: match points, then board points."""
        return self.match_points, self.board_points

    def add(self, outcome: int, own: Fraction, match_points: int, wertung: Fraction) -> None:
        """``outcome``: 1 won, 0 drawn, -1 lost."""
        self.matches += 1
        if outcome > 0:
            self.wins += 1
        elif outcome == 0:
            self.draws += 1
        else:
            self.losses += 1
        self.match_points += match_points
        self.board_points += own
        self.berliner_wertung += wertung


def team_standings(season: TeamSeason) -> TeamStandings:
    """The season's table (match points, then board points; ties share the rank) and every match."""
    reports = []
    tallies = {team: _Tally() for team in season.teams}
    for match in sorted(season.matches, key=lambda m: m.round):
        home, away = board_points(match.boards)
        outcomes = _outcomes((home, away), match.forfeited)
        awarded = (_match_points(outcomes[0], season.match_points), _match_points(outcomes[1], season.match_points))
        wertung = berliner_wertung(match.boards)
        reports.append(MatchReport(match, (home, away), wertung, awarded))
        tallies[match.home].add(outcomes[0], home, awarded[0], wertung[0])
        tallies[match.away].add(outcomes[1], away, awarded[1], wertung[1])
    for bye in season.byes:
        tallies[bye.team].match_points += bye.match_points
        tallies[bye.team].board_points += bye.board_points
    ordered = sorted(season.teams, key=lambda team: tallies[team].key, reverse=True)
    rows: list[TeamRow] = []
    for position, team in enumerate(ordered, start=1):
        tally = tallies[team]
        tied = bool(rows) and tallies[rows[-1].team].key == tally.key
        rank = rows[-1].rank if tied else position
        rows.append(
            TeamRow(
                rank,
                team,
                tally.matches,
                tally.wins,
                tally.draws,
                tally.losses,
                tally.match_points,
                tally.board_points,
                tally.berliner_wertung,
            )
        )
    rounds = max((*(match.round for match in season.matches), *(bye.round for bye in season.byes)), default=0)
    return TeamStandings(tuple(rows), tuple(reports), rounds)
