"""Expected score (spec §4) and the solver for "which rating makes my expected points equal
my points" used by the joint iteration and the performance (spec §9.4, §9.5)."""

from __future__ import annotations

from collections.abc import Sequence
from math import erf, exp, sqrt

__all__ = ["SOLVE_TOLERANCE", "expected_score", "solve_rating"]

#: spec §13.13: iterations are solved to 1e-9 or better before rounding.
SOLVE_TOLERANCE = 1e-10

_SCALE = 400.0  # sqrt(2 * 80000): P(D) = Φ(D / σ) with σ² = 80000 (WO 3.3.1)
_DENSITY = 1.0 / (_SCALE * sqrt(3.141592653589793))


def expected_score(difference: float) -> float:
    """P(D) = ½ · (1 + erf(D / 400)); D is own rating minus the opponent's (spec §4)."""
    return 0.5 * (1.0 + erf(difference / _SCALE))


def solve_rating(opponents: Sequence[float], points: float, start: float | None = None) -> float:
    """The rating R with Σ P(R − r_j) = points.

    Requires 0 < points < len(opponents), where exactly one finite solution exists (the sum is
    strictly increasing in R). Newton's method, kept inside a bracket by bisection, so that a
    far start or a flat tail can never make it diverge.
    """
    count = len(opponents)
    if not 0.0 < points < count:
        raise ValueError(f"no finite rating for {points} points in {count} games")
    lowest, highest = min(opponents), max(opponents)
    low, high = lowest - _SCALE, highest + _SCALE
    while _excess(opponents, low, points) > 0.0:
        low -= 4 * (high - low)
    while _excess(opponents, high, points) < 0.0:
        high += 4 * (high - low)
    rating = sum(opponents) / count if start is None else min(max(start, low), high)
    while True:
        value = -points
        slope = 0.0
        for opponent in opponents:
            z = (rating - opponent) / _SCALE
            value += 0.5 * (1.0 + erf(z))
            slope += exp(-z * z)
        slope *= _DENSITY
        if value > 0.0:
            high = rating
        else:
            low = rating
        step = value / slope if slope > 0.0 else float("inf")
        candidate = rating - step
        if not low < candidate < high:
            candidate = 0.5 * (low + high)
        if abs(candidate - rating) < SOLVE_TOLERANCE or high - low < SOLVE_TOLERANCE:
            return candidate
        rating = candidate


def _excess(opponents: Sequence[float], rating: float, points: float) -> float:
    return sum(0.5 * (1.0 + erf((rating - r) / _SCALE)) for r in opponents) - points
