"""Game results drawn from the players' hidden true strengths.

The expected score is the normal-distribution expectation the DWZ itself assumes (spec §4), so
that a correct engine's ratings converge on the true strengths. Draws become more frequent as
the players get stronger and as they get closer in strength; white has a small edge. A few
games are not played at all (forfeits, spec §3), which the engine must leave unrated.
"""

from __future__ import annotations

from math import erf, sqrt
from random import Random
from typing import NamedTuple

from zdb.rating import ResultCode

__all__ = ["Outcome", "Results"]

#: white's advantage, in rating points
WHITE_EDGE = 30.0
#: share of forfeits that are double forfeits (both players absent)
DOUBLE_SHARE = 0.1


class Outcome(NamedTuple):
    """A drawn result with what the standings need of it (points in halves, who was absent)."""

    result: ResultCode
    white_halves: int
    black_halves: int
    white_absent: bool
    black_absent: bool


_WHITE = Outcome(ResultCode.WHITE_WINS, 2, 0, False, False)
_BLACK = Outcome(ResultCode.BLACK_WINS, 0, 2, False, False)
_DRAW = Outcome(ResultCode.DRAW, 1, 1, False, False)
_WHITE_FORFEIT = Outcome(ResultCode.WHITE_WINS_FORFEIT, 2, 0, False, True)
_BLACK_FORFEIT = Outcome(ResultCode.BLACK_WINS_FORFEIT, 0, 2, True, False)
_DOUBLE_FORFEIT = Outcome(ResultCode.DOUBLE_FORFEIT, 0, 0, True, True)


class Results:
    """Draws results; ``forfeits`` is the share of games not played."""

    __slots__ = ("_double", "_forfeits", "_random")

    def __init__(self, rng: Random, forfeits: float) -> None:
        self._random = rng.random
        self._forfeits = forfeits
        self._double = forfeits * DOUBLE_SHARE

    def draw(self, white: float, black: float) -> Outcome:
        """A result between players of true strengths ``white`` and ``black``."""
        random = self._random
        u = random()
        if u < self._forfeits:
            if u < self._double:
                return _DOUBLE_FORFEIT
            return _WHITE_FORFEIT if u < 0.5 * (self._forfeits + self._double) else _BLACK_FORFEIT
        expected = 0.5 * (1.0 + erf((white - black + WHITE_EDGE) / 400.0))
        base = 0.36 + (white + black - 2400.0) * 0.00015
        if base < 0.12:
            base = 0.12
        elif base > 0.6:
            base = 0.6
        # Any half-draw share up to min(e, 1 - e) keeps the expected score exactly e; capped
        # at three quarters of it so that the weaker player keeps some chance to win.
        half_draw = base * sqrt(expected * (1.0 - expected))
        limit = 0.75 * (expected if expected < 0.5 else 1.0 - expected)
        half_draw = min(half_draw, limit)
        v = random()
        if v < expected - half_draw:
            return _WHITE
        if v < expected + half_draw:
            return _DRAW
        return _BLACK
