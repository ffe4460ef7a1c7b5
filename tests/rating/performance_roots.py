"""A performance worked out in the test, not by the engine: the rating at which the expected
points against ``opponents`` (spec §4's P, the normal distribution with σ = 200·√2) reach
``points``, found by bisection far beyond the nine decimals spec §5 rounds at."""

from __future__ import annotations

from math import erf


def performance_root(opponents: list[int], points: float) -> float:
    low, high = -10000.0, 20000.0
    for _ in range(200):
        middle = (low + high) / 2
        if sum(0.5 * (1 + erf((middle - r) / 400)) for r in opponents) < points:
            low = middle
        else:
            high = middle
    return (low + high) / 2
