"""A stored team season as a team season: the teams and matches found again in its games.

Why: a league season is stored as one tournament (spec §3) of individual games with their round
and board; the teams themselves are not stored. They are implied: within a round, the games are
stored match by match, board 1 first, so a match ends where the board numbers start again; at
each board the home team has white on the odd boards (FIDE's convention for team events, also
the federation's leagues), so each match splits its players into a home and an away side; and a
player plays for one team all season, so the sides of all matches join into the teams.

When the games do not fit (a game without round or board, a player on both sides of one
team, a team in two matches of one round), there is no team season to show: the caller shows
the individual crosstable. Pure: the caller reads the rows (and the clubs that name the teams).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from zdb.rating import PlayerId, ResultCode
from zdb.standings.team import TeamMatch, TeamSeason
from zdb.standings.team_games import mirrored

__all__ = ["team_season_from_rows"]

#: (round, board, white, black, result code) in stored order
StoredGame = tuple[int | None, int | None, PlayerId, PlayerId, str]


@dataclass(slots=True)
class _Match:
    round: int
    boards: list[tuple[ResultCode, PlayerId, PlayerId]] = field(default_factory=list)  # home first


class _Union:
    def __init__(self) -> None:
        self.parent: dict[PlayerId, PlayerId] = {}

    def find(self, player: PlayerId) -> PlayerId:
        self.parent.setdefault(player, player)
        while self.parent[player] != player:
            self.parent[player] = self.parent[self.parent[player]]
            player = self.parent[player]
        return player

    def join(self, first: PlayerId, second: PlayerId) -> None:
        self.parent[self.find(first)] = self.find(second)


def _matches(games: Sequence[StoredGame]) -> list[_Match] | None:
    """The matches in stored order; a new one starts where the board numbers start again."""
    matches: list[_Match] = []
    last: tuple[int, int] | None = None
    for number, board, white, black, result in games:
        if number is None or board is None:
            return None
        if last is None or last[0] != number or board <= last[1]:
            matches.append(_Match(number))
        last = (number, board)
        code = ResultCode(result)
        # the home team has white on the odd boards
        home_white = board % 2 == 1
        matches[-1].boards.append((code, white, black) if home_white else (mirrored(code), black, white))
    return matches


def team_season_from_rows(
    games: Sequence[StoredGame], clubs: Mapping[PlayerId, str] | None = None
) -> TeamSeason | None:
    """The season, or None when the games are no team matches; teams are named after the club
    most of their players belong to (``clubs``), numbered "2", "3" when a club has several."""
    matches = _matches(games)
    if not matches:
        return None
    union = _Union()
    for match in matches:
        for _, home, away in match.boards:
            union.join(home, match.boards[0][1])
            union.join(away, match.boards[0][2])
    sides = []
    for match in matches:
        home, away = union.find(match.boards[0][1]), union.find(match.boards[0][2])
        if home == away:
            return None
        sides.append((home, away))
    order = list(dict.fromkeys(team for pair in sides for team in pair))
    members: dict[PlayerId, list[PlayerId]] = {team: [] for team in order}
    for player in union.parent:
        members[union.find(player)].append(player)
    names = _names(order, members, clubs or {})
    season_matches = []
    seen: set[tuple[int, PlayerId]] = set()
    for match, (home, away) in zip(matches, sides, strict=True):
        if (match.round, home) in seen or (match.round, away) in seen:
            return None
        seen.update(((match.round, home), (match.round, away)))
        season_matches.append(
            TeamMatch(
                match.round,
                names[home],
                names[away],
                tuple(result for result, _, _ in match.boards),
                tuple((h, a) for _, h, a in match.boards),
            )
        )
    return TeamSeason(tuple(names[team] for team in order), tuple(season_matches))


def _names(
    order: Sequence[PlayerId], members: Mapping[PlayerId, list[PlayerId]], clubs: Mapping[PlayerId, str]
) -> dict[PlayerId, str]:
    names: dict[PlayerId, str] = {}
    taken: Counter[str] = Counter()
    for k, team in enumerate(order, start=1):
        counts = Counter(clubs[player] for player in members[team] if player in clubs)
        club = min(counts, key=lambda name: (-counts[name], name)) if counts else f"Team {k}"
        taken[club] += 1
        names[team] = club if taken[club] == 1 else f"{club} {taken[club]}"
    return names
