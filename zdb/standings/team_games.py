"""A team season built from the individual games of its players and the teams' rosters.

Why: a team tournament's Tournament Report File lists every board as an individual game and
the teams separately (TRF16 ``013``: a team and its players' start numbers), so the matches are
implied: in each round, the games between the players of two teams are their match. The board
order within a match is the order of the players in their team's roster (TRF16 lists a team's
players in board order); the home team is the one whose player has white on the first board
(FIDE's convention for team events: the team named first has white on the odd boards).

A board left empty by one team (TRF ``0000 - +`` for the player who turned up, FIDE's team
files) is won "kampflos" by the team that was there (a ``BoardDefault``); in a match forfeited as
a whole, a winner's board default and a loser's are one board. A team with no game in a round
has no match in it ("spielfrei") unless the match was forfeited as a whole.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from zdb.rating import InvalidInputError, PlayerId, ResultCode
from zdb.standings.model import Pairing
from zdb.standings.team import MatchPoints, TeamBye, TeamMatch, TeamSeason

__all__ = ["BoardDefault", "Roster", "mirrored", "season_from_games"]


_LEAGUE_POINTS = MatchPoints()


@dataclass(frozen=True, slots=True)
class Roster:
    name: str
    members: tuple[PlayerId, ...]  # in board order


@dataclass(frozen=True, slots=True)
class BoardDefault:
    """A player's board without an opponent: won (``+``) or lost (``-``) by forfeit."""

    round: int
    player: PlayerId
    won: bool


_MIRRORED = {
    ResultCode.WHITE_WINS: ResultCode.BLACK_WINS,
    ResultCode.BLACK_WINS: ResultCode.WHITE_WINS,
    ResultCode.DRAW: ResultCode.DRAW,
    ResultCode.WHITE_WINS_FORFEIT: ResultCode.BLACK_WINS_FORFEIT,
    ResultCode.BLACK_WINS_FORFEIT: ResultCode.WHITE_WINS_FORFEIT,
    ResultCode.DOUBLE_FORFEIT: ResultCode.DOUBLE_FORFEIT,
    ResultCode.BOTH_LOSE: ResultCode.BOTH_LOSE,
    ResultCode.WHITE_HALF_BLACK_ZERO: ResultCode.WHITE_ZERO_BLACK_HALF,
    ResultCode.WHITE_ZERO_BLACK_HALF: ResultCode.WHITE_HALF_BLACK_ZERO,
}


def mirrored(result: ResultCode) -> ResultCode:
    """The same result written from the other player's side ("1-0" becomes "0-1")."""
    return _MIRRORED[result]


@dataclass(slots=True)
class _Board:
    first: PlayerId | None  # the player of the team listed first in the rosters
    second: PlayerId | None
    result: ResultCode  # first team's player's score first
    first_white: bool | None  # None: no game at the board
    position: int  # the roster position that orders the boards


def season_from_games(
    rosters: Sequence[Roster],
    rounds: Sequence[Sequence[Pairing]],
    *,
    defaults: Sequence[BoardDefault] = (),
    match_points: MatchPoints = _LEAGUE_POINTS,
    forfeited: Sequence[TeamMatch] = (),
    byes: Sequence[TeamBye] = (),
) -> TeamSeason:
    """``rounds[k]``: the games of round k + 1; ``forfeited``: matches forfeited as a whole
    (round, home, away and ``forfeited``; their boards are the ``defaults`` of their players);
    ``byes``: team byes that award points. ``InvalidInputError`` for a player in no team, two
    players of one team paired, or a team in two matches of one round."""
    team_of: dict[PlayerId, int] = {}
    position: dict[PlayerId, int] = {}
    for index, roster in enumerate(rosters):
        for place, member in enumerate(roster.members):
            if member in team_of:
                raise InvalidInputError(f"team {roster.name}", f"player {member} is in two teams")
            team_of[member], position[member] = index, place

    def team(player: PlayerId, where: str) -> int:
        if player not in team_of:
            raise InvalidInputError(where, f"player {player} is in no team")
        return team_of[player]

    index_of = {roster.name: index for index, roster in enumerate(rosters)}
    scheduled: dict[tuple[int, int, int], TeamMatch] = {}  # (round, first, second) -> the forfeited match
    for match in forfeited:
        home, away = index_of[match.home], index_of[match.away]
        scheduled[match.round, min(home, away), max(home, away)] = match
    matches: list[TeamMatch] = []
    for number, pairings in enumerate(rounds, start=1):
        boards: dict[tuple[int, int], list[_Board]] = defaultdict(list)
        for key in scheduled:
            if key[0] == number:
                boards[key[1], key[2]] = []
        for pairing in pairings:
            where = f"round {number}"
            white, black = team(pairing.white, where), team(pairing.black, where)
            if white == black:
                raise InvalidInputError(where, f"{pairing.white} and {pairing.black} play for the same team")
            if white < black:
                board = _Board(pairing.white, pairing.black, pairing.result, True, position[pairing.white])
                boards[white, black].append(board)
            else:
                board = _Board(pairing.black, pairing.white, mirrored(pairing.result), False, position[pairing.black])
                boards[black, white].append(board)
        _check_one_match_per_team(boards, number, rosters)
        waiting: dict[tuple[int, int], dict[tuple[bool, bool], list[PlayerId]]] = defaultdict(lambda: defaultdict(list))
        for default in sorted((d for d in defaults if d.round == number), key=lambda d: position[d.player]):
            own = team(default.player, f"round {number}")
            pair = next((key for key in boards if own in key), None)
            if pair is not None:  # else the team has no match in this round ("spielfrei")
                waiting[pair][own == pair[0], default.won].append(default.player)
        for pair, sides in waiting.items():
            boards[pair].extend(_default_boards(sides, position))
        for (first, second), items in sorted(boards.items()):
            given = scheduled.get((number, first, second))
            if not items and given is None:
                continue
            match = _match(number, rosters[first].name, rosters[second].name, items)
            if given is not None:
                match = _as_forfeited(match, given)
            matches.append(match)
    return TeamSeason(tuple(roster.name for roster in rosters), tuple(matches), match_points, tuple(byes))


def _default_boards(sides: dict[tuple[bool, bool], list[PlayerId]], position: dict[PlayerId, int]) -> list[_Board]:
    """The boards of players without an opponent: a board won by one team's player and lost by
    the other's is one board (a match forfeited, board by board); the rest stand alone, won
    "kampflos" by the player who was there or lost without anyone scoring."""
    result = []
    first_won, second_lost = sides[True, True], sides[False, False]
    second_won, first_lost = sides[False, True], sides[True, False]
    for won, lost in zip(first_won, second_lost, strict=False):
        result.append(_Board(won, lost, ResultCode.WHITE_WINS_FORFEIT, None, position[won]))
    for won, lost in zip(second_won, first_lost, strict=False):
        result.append(_Board(lost, won, ResultCode.BLACK_WINS_FORFEIT, None, position[won]))
    for won in first_won[len(second_lost) :]:
        result.append(_Board(won, None, ResultCode.WHITE_WINS_FORFEIT, None, position[won]))
    for won in second_won[len(first_lost) :]:
        result.append(_Board(None, won, ResultCode.BLACK_WINS_FORFEIT, None, position[won]))
    for lost in first_lost[len(second_won) :]:
        result.append(_Board(lost, None, ResultCode.DOUBLE_FORFEIT, None, position[lost]))
    for lost in second_lost[len(first_won) :]:
        result.append(_Board(None, lost, ResultCode.DOUBLE_FORFEIT, None, position[lost]))
    return result


def _check_one_match_per_team(
    boards: dict[tuple[int, int], list[_Board]], number: int, rosters: Sequence[Roster]
) -> None:
    seen: dict[int, tuple[int, int]] = {}
    for pair in boards:
        for index in pair:
            if index in seen:
                names = " and ".join(rosters[other].name for other in (*seen[index], *pair) if other != index)
                problem = f"team {rosters[index].name} plays {names} in one round"
                raise InvalidInputError(f"round {number}", problem)
            seen[index] = pair


def _as_forfeited(match: TeamMatch, given: TeamMatch) -> TeamMatch:
    """The match as forfeited: home and away as the record names them."""
    if match.home != given.home:
        match = _swapped(match)
    return replace(match, forfeited=given.forfeited)


def _swapped(match: TeamMatch) -> TeamMatch:
    return TeamMatch(
        match.round,
        match.away,
        match.home,
        tuple(mirrored(result) for result in match.boards),
        tuple((away, home) for home, away in match.lineup),
    )


def _match(number: int, first: str, second: str, items: list[_Board]) -> TeamMatch:
    ordered = sorted(items, key=lambda board: board.position)
    leading = next((board for board in ordered if board.first_white is not None), None)
    first_home = leading is None or bool(leading.first_white)
    match = TeamMatch(
        number,
        first,
        second,
        tuple(board.result for board in ordered),
        tuple((board.first, board.second) for board in ordered),
    )
    return match if first_home else _swapped(match)
