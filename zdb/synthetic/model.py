"""The synthetic federation's frozen output: what a database of the federation would hold.

The engine needs only ``Tournament`` and ``PlayerState``; the rest (the federation tree, clubs,
people, memberships, round dates, boards, team pairings, submission dates) is here so that
loading the same data into a database needs nothing the generator did not produce.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from enum import Enum

from zdb.rating import Game, PlayerId, PlayerState, StartRating, Tournament

__all__ = [
    "FIRST_PID",
    "Club",
    "Federation",
    "FederationLevel",
    "Match",
    "Membership",
    "Player",
    "SyntheticFederation",
    "SyntheticTournament",
    "Team",
    "TournamentKind",
    "Truth",
    "fide_scale",
]

#: person numbers are consecutive from here: ``players[k].pid == str(FIRST_PID + k)``
FIRST_PID = 10_000_001


class FederationLevel(Enum):
    NATIONAL = "national"
    REGIONAL = "regional"
    DISTRICT = "district"


@dataclass(frozen=True, slots=True)
class Federation:
    """A node of the tree DSB -> regional federations -> districts.

    Codes have three characters: "000" for the national federation, the region character and
    "00" for a regional federation ("C00"), the region character and two digits for a district
    ("C03"). A club's ZPS begins with its district's code ("C0327")."""

    code: str
    name: str
    level: FederationLevel
    parent: str | None


@dataclass(frozen=True, slots=True)
class Club:
    zps: str  # 5 characters: district code + 2 digits
    name: str
    district: str

    @property
    def region(self) -> str:
        return self.zps[0]


@dataclass(frozen=True, slots=True)
class Membership:
    """A player's membership in a club: ``until`` is the first day he is no longer a member
    (None: still a member at the end of the time line). Passive members do not play."""

    club: str
    number: int  # unique within the club
    since: date
    until: date | None
    active: bool

    def covers(self, day: date) -> bool:
        return self.since <= day and (self.until is None or day < self.until)


@dataclass(frozen=True, slots=True)
class Player:
    """A person in the register. Guests and foreign visitors have no membership."""

    pid: PlayerId  # our person number, never reused
    first_name: str
    last_name: str
    sex: str  # "M" or "F"
    birth_date: date
    nation: str  # FIDE three-letter code
    fide_id: int | None
    fide_rating: int | None  # the last one of the time line (per tournament: the participant's)
    memberships: tuple[Membership, ...]

    @property
    def birth_year(self) -> int:
        return self.birth_date.year

    @property
    def member(self) -> bool:
        return bool(self.memberships)

    def membership_at(self, day: date) -> Membership | None:
        for membership in self.memberships:
            if membership.covers(day):
                return membership
        return None


class TournamentKind(Enum):
    TEAM_SEASON = "team_season"
    CLUB_CHAMPIONSHIP = "club_championship"
    OPEN = "open"
    YOUTH = "youth"


@dataclass(frozen=True, slots=True)
class Team:
    club: str
    number: int  # 1 for a club's first team
    name: str


@dataclass(frozen=True, slots=True)
class Match:
    """One match of a team season: ``games`` consecutive games of the tournament (an empty
    board has no game); ``home`` and ``away`` index the season's teams; the home team has
    white on odd boards."""

    round: int
    home: int
    away: int
    games: int


@dataclass(frozen=True, slots=True)
class SyntheticTournament:
    """A tournament as submitted, with what a database stores beside the engine's input.

    ``event.games`` are stored round by round: ``round_sizes[r]`` games in round ``r + 1``,
    ``boards[k]`` the board (team seasons) or table number (individual events) of game ``k``.
    """

    event: Tournament
    name: str
    kind: TournamentKind
    organiser: str  # a federation code or, for club events, the club's ZPS
    referee: PlayerId
    round_dates: tuple[date, ...]
    round_sizes: tuple[int, ...]
    boards: bytes
    time_control: str  # PGN TimeControl notation, seconds: "40/5400+30:1800+30"
    submitted: date
    teams: tuple[Team, ...] = ()
    matches: tuple[Match, ...] = ()

    @property
    def start_date(self) -> date:
        return self.round_dates[0]

    def placed_games(self) -> Iterator[tuple[int, int, Game]]:
        """(round, board, game) for every game, in stored order."""
        games = iter(zip(self.boards, self.event.games, strict=True))
        for number, size in enumerate(self.round_sizes, start=1):
            for _ in range(size):
                board, game = next(games)
                yield number, board, game


def fide_scale(strength: float) -> float:
    """Where a (classic-scale) strength lies on the FIDE scale: the 2026 conversion was made to
    bring DWZ close to Elo, so its formula serves as the map (spec §8)."""
    return strength if strength > 2110 else 0.64 * strength + 760


class Truth:
    """The hidden true strengths that game results are drawn from, on the classic DWZ scale,
    one value per player and calendar year, and each FIDE-rated player's offset from the FIDE
    scale. Kept so that further tournaments (a late submission in a benchmark) are drawn from
    the same world. Read-only: nothing here changes after generation."""

    __slots__ = ("_fide", "_first_year", "_players", "_values")

    #: FIDE publishes no rating below this
    FIDE_FLOOR = 1400

    def __init__(self, first_year: int, players: int, values: array[float], fide: Mapping[int, float]) -> None:
        self._first_year = first_year
        self._players = players
        self._values = values
        self._fide = dict(fide)

    @property
    def years(self) -> range:
        return range(self._first_year, self._first_year + len(self._values) // max(1, self._players))

    def strength(self, index: int, year: int) -> float:
        """Player ``index``'s strength in ``year`` (clamped to the years generated)."""
        row = min(max(year - self._first_year, 0), len(self.years) - 1)
        return self._values[row * self._players + index]

    def year_row(self, year: int) -> memoryview:
        """All players' strengths in ``year``, indexed by player (fast access in loops)."""
        row = min(max(year - self._first_year, 0), len(self.years) - 1)
        return memoryview(self._values)[row * self._players : (row + 1) * self._players].toreadonly()

    def fide_rating(self, index: int, year: int) -> int | None:
        """Player ``index``'s FIDE rating in ``year``, or None (no FIDE id, or below the floor)."""
        offset = self._fide.get(index)
        if offset is None:
            return None
        rating = round(fide_scale(self.strength(index, year)) + offset)
        return rating if rating >= self.FIDE_FLOOR else None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Truth):
            return NotImplemented
        return (self._first_year, self._players, self._values, self._fide) == (
            other._first_year,
            other._players,
            other._values,
            other._fide,
        )

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True, slots=True, eq=True)
class SyntheticFederation:
    """A federation's register and ten years of its tournaments.

    ``tournaments`` are in submission order: by end date, except the few that arrive late.
    ``initial_states`` are the ratings at ``start`` (established players only; everyone else
    starts unrated).
    """

    seed: int
    scale: float
    start: date
    end: date
    federations: tuple[Federation, ...]
    clubs: tuple[Club, ...]
    players: tuple[Player, ...]
    initial_states: Mapping[PlayerId, PlayerState]
    tournaments: tuple[SyntheticTournament, ...]
    truth: Truth

    @property
    def submissions(self) -> tuple[Tournament, ...]:
        """The engine's view: the tournaments in submission order."""
        return tuple(t.event for t in self.tournaments)

    def start_ratings(self) -> tuple[StartRating, ...]:
        """The initial states as start-rating events dated the day before ``start`` (what an
        import of the federation's rating list amounts to, spec §2)."""
        day = self.start - timedelta(days=1)
        return tuple(
            StartRating(pid, day, state.rating, state.index)
            for pid, state in self.initial_states.items()
            if state.rating is not None
        )

    def player(self, pid: PlayerId) -> Player:
        return self.players[int(pid) - FIRST_PID]
