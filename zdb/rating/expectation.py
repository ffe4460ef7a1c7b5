"""Expected score (spec §4) and the solver for "which rating makes my expected points equal
my points" used by the joint iteration and the performance (spec §9.4, §9.5)."""

from __future__ import annotations

from collections.abc import Sequence
from math import erf, exp, inf, sqrt
from statistics import NormalDist

__all__ = ["SOLVE_TOLERANCE", "expected_score", "solve_rating"]

#: spec §13.13: iterations are solved to 1e-9 or better before rounding.
SOLVE_TOLERANCE = 1e-10

_SCALE = 400.0  # P(D) = ½(1 + erf(D / 400)) = Φ(D / σ) with σ² = 80000 (WO 3.3.1)
_SIGMA = sqrt(80000.0)
_DENSITY = 1.0 / (_SCALE * sqrt(3.141592653589793))
_NORMAL = NormalDist()
_MAX_STEPS = 200
_LAST_STEP = 1e-5


def expected_score(difference: float) -> float:
    """P(D) = ½ · (1 + erf(D / 400)); D is own rating minus the opponent's (spec §4)."""
    return 0.5 * (1.0 + erf(difference / _SCALE))


def solve_rating(opponents: Sequence[float], points: float, start: float | None = None) -> float:
    """The rating R with Σ P(R − r_j) = points.

    Requires 0 < points < len(opponents), where exactly one finite solution exists (the sum is
    strictly increasing in R). Newton's method from the solution against the opponents' mean
    (exact when all opponents are equally rated, so usually two or three steps), kept inside
    the bracket it learns by bisection, so that it can never diverge.
    """
    count = len(opponents)
    if not 0.0 < points < count:
        raise ValueError(f"no finite rating for {points} points in {count} games")
    rating = sum(opponents) / count + _SIGMA * _NORMAL.inv_cdf(points / count) if start is None else start
    low, high = -inf, inf  # the bracket learnt so far: f(low) < 0 < f(high)
    f_low = f_high = 0.0
    for _ in range(_MAX_STEPS):
        value = -points
        slope = 0.0
        for opponent in opponents:
            z = (rating - opponent) / _SCALE
            value += 0.5 * (1.0 + erf(z))
            slope += exp(-z * z)
        if value == 0.0:
            return rating
        if value > 0.0:
            high, f_high = rating, value
        else:
            low, f_low = rating, value
        slope *= _DENSITY
        step = value / slope if slope > 0.0 else inf
        candidate = rating - max(-_SCALE, min(_SCALE, step))  # no step beyond 400 points
        if low < candidate < high and abs(step) < _LAST_STEP:
            # Newton converges quadratically: after a step this small the remaining error is
            # below 1e-12, far inside the 1e-9 the spec asks for (§13.13).
            return candidate
        if not low < candidate < high:
            # Newton left the bracket: false position inside it (or a step towards the root
            # while one side is still open).
            if low == -inf or high == inf:
                candidate = rating - _SCALE if value > 0.0 else rating + _SCALE
            else:
                candidate = low - f_low * (high - low) / (f_high - f_low)
        if abs(candidate - rating) < SOLVE_TOLERANCE:
            return candidate
        rating = candidate
    raise ArithmeticError("no convergence")  # pragma: no cover - bisection converges long before
