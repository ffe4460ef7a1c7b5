"""Generated round robins (the circle method of Berger tables) and team seasons, for tests.

The results are chosen by a fixed rule, not drawn: the tests compute what they expect from the
definitions (every pair meets once or twice; a game gives out one point), never from the code
under test.
"""

from __future__ import annotations

from collections.abc import Callable

from zdb.rating import ResultCode
from zdb.standings import IndividualTournament, Pairing, PairingSystem, Round

__all__ = ["circle_rounds", "generated_round_robin", "rule_result"]


def circle_rounds(count: int) -> list[list[tuple[int, int]]]:
    """Berger's circle method: n - 1 rounds (n rounds for an odd n, each player free once) in
    which every pair of 0..count-1 meets once; (white, black)."""
    seats = list(range(count)) + ([-1] if count % 2 else [])
    size = len(seats)
    rounds = []
    for number in range(size - 1):
        pairs = []
        for k in range(size // 2):
            a, b = seats[k], seats[size - 1 - k]
            if a >= 0 and b >= 0:
                pairs.append((a, b) if (number + k) % 2 == 0 else (b, a))
        rounds.append(pairs)
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds


def rule_result(white: int, black: int) -> ResultCode:
    """The lower number wins, except that every third pair (by the sum of the numbers) draws."""
    if (white + black) % 3 == 0:
        return ResultCode.DRAW
    return ResultCode.WHITE_WINS if white < black else ResultCode.BLACK_WINS


def generated_round_robin(
    count: int,
    *,
    double: bool = False,
    result: Callable[[int, int], ResultCode] = rule_result,
    pairing: PairingSystem = PairingSystem.ROUND_ROBIN,
) -> IndividualTournament:
    """Players "P1".."Pn"; a double round robin repeats the cycle with colours reversed."""
    schedule = circle_rounds(count)
    if double:
        schedule += [[(black, white) for white, black in pairs] for pairs in schedule]
    names = tuple(f"P{k + 1}" for k in range(count))
    rounds = tuple(
        Round(tuple(Pairing(names[white], names[black], result(white, black)) for white, black in pairs))
        for pairs in schedule
    )
    return IndividualTournament(names, rounds, pairing)
