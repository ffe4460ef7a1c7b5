"""The engine's frozen value types: what goes into an evaluation and what comes out.

Everything here is immutable, so a caller can hand the same snapshot to the engine twice and
get the same answer, and the engine can never change a caller's data behind its back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import FrozenInstanceError, dataclass
from datetime import date
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from zdb.rating.columns import ReportColumns

__all__ = [
    "EMPTY_STATE",
    "Game",
    "InvalidInputError",
    "LeftoverGame",
    "Participant",
    "PlayerId",
    "PlayerState",
    "ReportRow",
    "ResultCode",
    "Stage",
    "Tournament",
    "TournamentEvaluation",
    "frozen_map",
]

PlayerId = str


class InvalidInputError(ValueError):
    """Input the engine cannot evaluate; ``place`` names the offending field."""

    def __init__(self, place: str, problem: str) -> None:
        super().__init__(f"{place}: {problem}")
        self.place = place
        self.problem = problem


class ResultCode(Enum):
    """A game's result as written in a submission (white's score first)."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    WHITE_WINS_FORFEIT = "+-"
    BLACK_WINS_FORFEIT = "-+"
    DOUBLE_FORFEIT = "--"
    # spec §3: asymmetric results count for the standings as given, never for the rating.
    BOTH_LOSE = "0-0"
    WHITE_HALF_BLACK_ZERO = "1/2-0"
    WHITE_ZERO_BLACK_HALF = "0-1/2"

    # Members are singletons compared by identity: hashing by identity keeps a look-up by
    # result in C (Enum's own __hash__ is Python code, run once per game).
    __hash__ = object.__hash__

    @property
    def rated(self) -> bool:
        """Only games played at the board count (spec §3)."""
        return self in _PLAYED

    @property
    def white_points(self) -> float:
        return _POINTS[self][0]

    @property
    def black_points(self) -> float:
        return _POINTS[self][1]


_PLAYED = frozenset({ResultCode.WHITE_WINS, ResultCode.BLACK_WINS, ResultCode.DRAW})
_POINTS: dict[ResultCode, tuple[float, float]] = {
    ResultCode.WHITE_WINS: (1.0, 0.0),
    ResultCode.BLACK_WINS: (0.0, 1.0),
    ResultCode.DRAW: (0.5, 0.5),
    ResultCode.WHITE_WINS_FORFEIT: (1.0, 0.0),
    ResultCode.BLACK_WINS_FORFEIT: (0.0, 1.0),
    ResultCode.DOUBLE_FORFEIT: (0.0, 0.0),
    ResultCode.BOTH_LOSE: (0.0, 0.0),
    ResultCode.WHITE_HALF_BLACK_ZERO: (0.5, 0.0),
    ResultCode.WHITE_ZERO_BLACK_HALF: (0.0, 0.5),
}


class Stage(Enum):
    """Where a participant ended up in spec §9's selection."""

    ESTABLISHED = "established"
    STAGE1 = "stage1"
    STAGE2 = "stage2"
    UNRATED = "unrated"  # not in Auswahl II

    __hash__ = object.__hash__  # see ResultCode


@dataclass(frozen=True, slots=True)
class LeftoverGame:
    """A stored game of a player without a rating (Restpartie, spec §11)."""

    tournament: int
    end_date: date
    opp_rating: int
    points: float
    opp_fide: bool = False  # the opponent counted with a FIDE rating: never converted (§13.6)


class PlayerState(NamedTuple):
    """What the database knows of a player between two events.

    A named tuple, like the report rows: a replay makes one for every rated player of every
    tournament, and a tuple is several times cheaper to build than a frozen dataclass.
    """

    rating: int | None = None
    index: int = 0  # type: ignore[assignment]  # the field shadows tuple.index, as intended
    leftover: tuple[LeftoverGame, ...] = ()


EMPTY_STATE = PlayerState()


# Participants and games are named tuples, not frozen dataclasses: just as immutable, and a
# time line holds millions of them, each built when a tournament is loaded.
class Participant(NamedTuple):
    pid: PlayerId
    birth_year: int | None
    member: bool = True
    fide_rating: int | None = None


class Game(NamedTuple):
    white: PlayerId
    black: PlayerId
    result: ResultCode


@dataclass(frozen=True, slots=True)
class Tournament:
    """One tournament as submitted: its identity, its order key fields, players and games.

    Construction validates what would make an evaluation meaningless: a player listed twice, a
    game naming an unknown player, a player paired with himself (spec §2).
    """

    id: int
    acronym: str
    end_date: date
    players: tuple[Participant, ...]
    games: tuple[Game, ...]

    @classmethod
    def checked_before(
        cls, id: int, acronym: str, end_date: date, players: tuple[Participant, ...], games: tuple[Game, ...]
    ) -> Tournament:
        """A tournament whose players and games were checked before: read back from a database
        whose constraints hold what construction checks (a player once, games between two
        distinct listed players). Built without checking millions of games again."""
        tournament = object.__new__(cls)
        fields = {"id": id, "acronym": acronym, "end_date": end_date, "players": players, "games": games}
        for name, value in fields.items():
            object.__setattr__(tournament, name, value)
        return tournament

    def __post_init__(self) -> None:
        seen: set[PlayerId] = set()
        for k, player in enumerate(self.players):
            if player.pid in seen:
                raise InvalidInputError(f"players[{k}].pid", f"player {player.pid!r} is listed twice")
            seen.add(player.pid)
        for k, game in enumerate(self.games):
            if game.white not in seen:
                raise InvalidInputError(f"games[{k}].white", f"unknown player {game.white!r}")
            if game.black not in seen:
                raise InvalidInputError(f"games[{k}].black", f"unknown player {game.black!r}")
            if game.white == game.black:
                raise InvalidInputError(f"games[{k}]", f"player {game.white!r} is paired with himself")


class ReportRow(NamedTuple):
    """One participant's line of a tournament evaluation (spec §9, §13.15).

    A named tuple, not a frozen dataclass: just as immutable, and built for every participant
    of every tournament, several times cheaper.

    Names follow the spec: ``w`` points in rated games, ``n`` rated games, ``we`` expected points
    (rounded half up to 6 decimals), ``e`` (classic) or ``k`` (WO 2026), ``rh`` performance,
    ``rn``/``i_new`` the rating-index after the evaluation.
    """

    pid: PlayerId
    member: bool
    stage: Stage
    fide_start: bool
    r0: int | None
    i0: int | None
    w: float
    n: int
    unrated_games: int
    we: float | None
    e: int | None
    k: float | None
    rh: int | None
    sonder: bool
    rn: int | None
    i_new: int | None
    stored: bool
    leftover_used: int
    leftover_stored: int


def frozen_map(items: Mapping[PlayerId, PlayerState]) -> Mapping[PlayerId, PlayerState]:
    """A read-only copy, for results that must not be changed after the fact."""
    return MappingProxyType(dict(items))


class TournamentEvaluation:
    """The result of one tournament: the rule set used, the report, every participant's state
    after it (guests and players without a change included, unchanged) and before it (what it
    was evaluated from, so that it can be explained and replayed).

    Immutable. The report is given as rows, or as the rows ``span`` of a batch's ``columns``
    (``evaluate_tournaments``): then ``rows`` are made from the columns when first asked for,
    and a caller that stores whole batches reads the columns instead.
    """

    __slots__ = ("_rows", "columns", "inputs", "rule_set", "span", "states")

    rule_set: str
    states: Mapping[PlayerId, PlayerState]
    inputs: Mapping[PlayerId, PlayerState]
    columns: ReportColumns | None
    span: tuple[int, int]
    _rows: tuple[ReportRow, ...] | None

    def __init__(
        self,
        rule_set: str,
        rows: tuple[ReportRow, ...] | None = None,
        states: Mapping[PlayerId, PlayerState] | None = None,
        inputs: Mapping[PlayerId, PlayerState] | None = None,
        *,
        columns: ReportColumns | None = None,
        span: tuple[int, int] = (0, 0),
    ) -> None:
        if (rows is None) == (columns is None):
            raise TypeError("a tournament evaluation has either rows or columns")
        fields = {
            "rule_set": rule_set,
            "_rows": rows,
            "states": frozen_map({}) if states is None else states,
            "inputs": frozen_map({}) if inputs is None else inputs,
            "columns": columns,
            "span": span,
        }
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    @property
    def rows(self) -> tuple[ReportRow, ...]:
        rows = self._rows
        if rows is None:
            assert self.columns is not None
            rows = self.columns.rows(*self.span)
            object.__setattr__(self, "_rows", rows)  # a cache of what the columns hold
        return rows

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TournamentEvaluation):
            return NotImplemented
        mine = (self.rule_set, self.rows, self.states, self.inputs)
        return mine == (other.rule_set, other.rows, other.states, other.inputs)

    __hash__ = None  # type: ignore[assignment]  # the mappings are not hashable

    def __repr__(self) -> str:
        return f"TournamentEvaluation(rule_set={self.rule_set!r}, rows={self.rows!r}, states={self.states!r})"
