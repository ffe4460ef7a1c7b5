"""The standings' input: an individual tournament as a list of rounds with pairings, results and byes.

The rating engine's ``Tournament`` carries no round numbers, but Buchholz and Sonneborn-Berger
with unplayed rounds (FIDE C.07 art. 16) need them: whether a requested bye is followed by a
round the player was available for, and how many rounds the tournament had. So the standings
take their own frozen values. Results reuse the engine's ``ResultCode``: forfeits and byes count
for the points exactly as the code says (dwz-rules.md §3).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from zdb.rating import InvalidInputError, PlayerId, ResultCode

__all__ = [
    "FORFEITS",
    "Bye",
    "ByeKind",
    "IndividualTournament",
    "Pairing",
    "PairingSystem",
    "Round",
    "points",
]

#: Results of games that were not played at the board (FIDE C.07 art. 15.1: unplayed rounds).
#: The asymmetric codes (0-0, 1/2-0, 0-1/2) are arbiter decisions on games that were paired and
#: met at the board; they count as played games with the points as written.
FORFEITS = frozenset({ResultCode.WHITE_WINS_FORFEIT, ResultCode.BLACK_WINS_FORFEIT, ResultCode.DOUBLE_FORFEIT})


def points(value: float) -> Fraction:
    """A result's points as an exact fraction (0, 1/2 or 1), so that tie-breaks never round."""
    return Fraction(value)


class PairingSystem(Enum):
    """How the rounds were paired: it decides how unplayed rounds enter the tie-breaks."""

    ROUND_ROBIN = "round-robin"  # pre-determined pairings: FIDE C.07 art. 15.2
    SWISS = "swiss"  # FIDE C.07 art. 15.3 and 16


class ByeKind(Enum):
    """A round without an opponent (FIDE C.07 art. 16.1, 16.2)."""

    PAIRING_ALLOCATED = "pab"  # art. 16.2.1: the pairing-allocated bye, a win's points
    FULL_POINT = "full"  # art. 16.2.1: a full-point bye
    HALF_POINT = "half"  # art. 16.1.1: a requested half-point bye
    ZERO_POINT = "zero"  # art. 16.1.1: a requested zero-point bye, and every round after a withdrawal

    @property
    def points(self) -> Fraction:
        return _BYE_POINTS[self]

    @property
    def requested(self) -> bool:
        """art. 16.1.1: a half-point or zero-point bye is a requested bye."""
        return self in (ByeKind.HALF_POINT, ByeKind.ZERO_POINT)


_BYE_POINTS = {
    ByeKind.PAIRING_ALLOCATED: Fraction(1),
    ByeKind.FULL_POINT: Fraction(1),
    ByeKind.HALF_POINT: Fraction(1, 2),
    ByeKind.ZERO_POINT: Fraction(0),
}


@dataclass(frozen=True, slots=True)
class Pairing:
    white: PlayerId
    black: PlayerId
    result: ResultCode


@dataclass(frozen=True, slots=True)
class Bye:
    player: PlayerId
    kind: ByeKind


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its games and its byes. A player in neither is absent: a zero-point bye
    (FIDE C.07 art. 16.1.1 counts every round after a withdrawal as one)."""

    pairings: tuple[Pairing, ...] = ()
    byes: tuple[Bye, ...] = ()


@dataclass(frozen=True, slots=True)
class IndividualTournament:
    """An individual tournament: ``rounds[k]`` is round ``k + 1``.

    ``players`` gives the starting order; players still tied after every tie-break share their
    rank and are listed in this order. Construction refuses what would make standings
    meaningless: a player listed twice, an unknown player, a player paired with himself, a
    player twice in one round.
    """

    players: tuple[PlayerId, ...]
    rounds: tuple[Round, ...]
    pairing_system: PairingSystem = PairingSystem.SWISS

    def __post_init__(self) -> None:
        known: set[PlayerId] = set()
        for k, player in enumerate(self.players):
            if player in known:
                raise InvalidInputError(f"players[{k}]", f"player {player!r} is listed twice")
            known.add(player)
        for number, round_ in enumerate(self.rounds, start=1):
            _check_round(round_, number, known)


def _check_round(round_: Round, number: int, known: set[PlayerId]) -> None:
    seen: set[PlayerId] = set()

    def take(player: PlayerId, place: str) -> None:
        if player not in known:
            raise InvalidInputError(place, f"unknown player {player!r}")
        if player in seen:
            raise InvalidInputError(place, f"player {player!r} appears twice in round {number}")
        seen.add(player)

    for k, pairing in enumerate(round_.pairings):
        place = f"rounds[{number - 1}].pairings[{k}]"
        if pairing.white == pairing.black:
            raise InvalidInputError(place, f"player {pairing.white!r} is paired with himself")
        take(pairing.white, f"{place}.white")
        take(pairing.black, f"{place}.black")
    for k, bye in enumerate(round_.byes):
        take(bye.player, f"rounds[{number - 1}].byes[{k}].player")
