"""Expected scores and rounded performances for integer ratings, by table look-up.

Almost every rating the evaluation meets is an integer (R0, a first rating, an Ausnahmespieler's
Rh), so a difference of two ratings is an integer and P(D) can be read from a table built once
with ``expected_score`` itself: the same double, bit for bit, at a fraction of the cost.

A performance is published rounded (spec §9.5, §5), so it is enough to find the integer m with
Σ P(m − ½ − r_j) ≤ W < Σ P(m + ½ − r_j): both sums are over half-integer differences, again
table look-ups. Where W comes within ``_TIE_MARGIN`` of either sum, the root lies so close to
a tie (x.5) that §5's nine-decimal rounding could decide it: those cases, and differences
beyond the table, take the exact solver (``solve_rating`` + ``round_float``).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import floor, sqrt
from statistics import NormalDist

from zdb.rating.expectation import expected_score, solve_rating
from zdb.rating.rounding import round_float

__all__ = ["TABLE_LIMIT", "expected_at", "expected_sum", "rounded_performance"]

#: differences within ±TABLE_LIMIT are tabulated; beyond ±2400, P is 0.0 or 1.0 to the last bit
TABLE_LIMIT = 4000
#: W this close to a lattice sum: the root is within ~1e-7 of a tie, decided exactly instead
_TIE_MARGIN = 1e-7
_MAX_MOVES = 8
_VARIANCE = 80000.0  # σ² of spec §4
_NORMAL = NormalDist()

#: P(d) at _AT[d + TABLE_LIMIT]; P(d + ½) at _HALF[d + TABLE_LIMIT]
_AT = tuple(expected_score(float(d)) for d in range(-TABLE_LIMIT, TABLE_LIMIT + 1))
_HALF = tuple(expected_score(d + 0.5) for d in range(-TABLE_LIMIT, TABLE_LIMIT + 1))
_QUANTILES: dict[tuple[float, int], float] = {}


def expected_at(difference: int) -> float:
    """``expected_score(difference)`` for an integer difference (the identical double)."""
    if -TABLE_LIMIT <= difference <= TABLE_LIMIT:
        return _AT[difference + TABLE_LIMIT]
    return expected_score(float(difference))


def expected_sum(own: int, opponents: Sequence[int]) -> float:
    """Σ ``expected_score(own − r)`` over ``opponents``, summed in their order (the same double
    as summing ``expected_score`` directly)."""
    table, limit = _AT, TABLE_LIMIT
    total = 0.0
    for r in opponents:
        d = own - r
        total += table[d + limit] if -limit <= d <= limit else expected_score(float(d))
    return total


def _quantile(points: float, count: int) -> float:
    """Φ⁻¹(W / n), cached: W and n take few values."""
    key = (points, count)
    value = _QUANTILES.get(key)
    if value is None:
        value = _QUANTILES[key] = _NORMAL.inv_cdf(points / count)
    return value


def rounded_performance(opponents: Sequence[int], points: float) -> int:
    """``round_float(solve_rating(opponents, points))`` for integer opponent ratings.

    Requires 0 < points < len(opponents), like ``solve_rating``.
    """
    count = len(opponents)
    if not 0.0 < points < count:
        raise ValueError(f"no finite rating for {points} points in {count} games")
    # Start: were the opponents' ratings normally distributed with variance s², the solution
    # would be mean + √(σ² + s²)·Φ⁻¹(W / n); usually right or one lattice step away.
    mean = sum(opponents) / count
    spread = sum((r - mean) ** 2 for r in opponents) / count
    m = floor(mean + sqrt(_VARIANCE + spread) * _quantile(points, count) + 0.5)
    # Table indexes of m ± ½ − r for every r must stay inside the table for all m tried.
    low_room = min(opponents) + TABLE_LIMIT
    high_room = max(opponents) - TABLE_LIMIT
    half = _HALF
    for _ in range(_MAX_MOVES):
        if not (high_room <= m - 1 and m <= low_room):
            break
        base = m + TABLE_LIMIT
        lower = base - 1
        below = -points  # f(m − ½) = Σ P((m − 1 − r) + ½) − W
        above = -points  # f(m + ½)
        for r in opponents:
            below += half[lower - r]
            above += half[base - r]
        if below < -_TIE_MARGIN and above > _TIE_MARGIN:
            return m
        slope = above - below  # f rises by this much over one point
        if below > _TIE_MARGIN:  # the root lies below m − ½
            m = min(m - 1, floor(m - below / slope)) if slope > 0.0 else m - 1
        elif above < -_TIE_MARGIN:  # the root lies above m + ½
            m = max(m + 1, floor(m + 1 - above / slope)) if slope > 0.0 else m + 1
        else:
            break  # the root is within reach of a tie: decided exactly below
    return round_float(solve_rating([float(r) for r in opponents], points))
