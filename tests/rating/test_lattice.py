"""The table look-ups give what the direct computation gives: the same expected scores to the
last bit, and the same rounded performance as solving and rounding (spec §4, §5, §9.5)."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zdb.rating.expectation import expected_score, solve_rating
from zdb.rating.lattice import TABLE_LIMIT, expected_at, expected_sums, rounded_performance, rounded_performances
from zdb.rating.rounding import round_float

_EXPLORE = os.environ.get("ZDB_PROPERTY_EXAMPLES")
PROPERTY = settings(max_examples=int(_EXPLORE or "2000"), derandomize=_EXPLORE is None, deadline=None)


def _solved(opponents: list[int], points: float) -> int:
    return round_float(solve_rating([float(r) for r in opponents], points))


def test_every_tabulated_difference_is_the_computed_double() -> None:
    for difference in range(-TABLE_LIMIT - 50, TABLE_LIMIT + 51):
        assert expected_at(difference) == expected_score(float(difference))


def test_sums_beyond_the_table_are_the_computed_doubles() -> None:
    far = [0, 10, -TABLE_LIMIT - 500, 2 * TABLE_LIMIT + 300, 1500]
    own = np.array([TABLE_LIMIT + 100, 1500])
    owner = np.array([0, 0, 0, 1, 1])
    sums = expected_sums(own, np.array(far), owner, 2)
    assert sums[0] == sum(expected_score(TABLE_LIMIT + 100.0 - r) for r in far[:3])
    assert sums[1] == expected_score(1500.0 - far[3]) + expected_score(0.0)


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[int], float]:
    count = draw(st.integers(1, 20))
    centre = draw(st.integers(0, 3000))
    spread = draw(st.sampled_from([0, 5, 50, 200, 600]))
    opponents = [max(0, centre + draw(st.integers(-spread, spread))) for _ in range(count)]
    points = draw(st.integers(1, 2 * count - 1)) / 2
    return opponents, points


@PROPERTY
@given(fields())
def test_rounded_performance_equals_solving_and_rounding(case: tuple[list[int], float]) -> None:
    opponents, points = case
    assert rounded_performance(opponents, points) == _solved(opponents, points)


EDGE_CASES = [
    ([1000, 1001], 1.0),  # root exactly 1000.5: a tie, decided by the exact route
    ([1500] * 4, 2.0),  # root exactly 1500: the lattice decides
    ([0, 0, 5000, 5000], 1.5),  # a nearly flat sum: the secant leaves the table
    ([0] * 10 + [6000] * 10, 9.5),  # P saturated between the groups: no slope, step by step down
    ([0] * 10 + [6000] * 10, 10.5),  # ... and up, until the moves run out
    ([0, 9000], 0.5),  # beyond the table
    ([1200, 1250, 2900, 2950, 2980], 2.5),  # a start far from the root
]


def _in_bulk(cases: list[tuple[list[int], float]], skipped: int = 0) -> list[int]:
    """``rounded_performances`` of the cases as players ``skipped`` .. (earlier players have
    games too, but are not asked for)."""
    everyone = [([1500, 1700], 1.0)] * skipped + cases
    owner = np.array([k for k, (opponents, _) in enumerate(everyone) for _ in opponents], dtype=np.int64)
    ratings = np.array([r for opponents, _ in everyone for r in opponents], dtype=np.int64)
    points = np.array([p for _, p in everyone])
    counts = np.array([len(opponents) for opponents, _ in everyone], dtype=np.int64)
    players = np.arange(skipped, len(everyone), dtype=np.int64)
    found: list[int] = rounded_performances(owner, ratings, points, counts, players).tolist()
    return found


@PROPERTY
@given(st.lists(fields(), min_size=1, max_size=6), st.integers(0, 2))
def test_performances_in_bulk_equal_solving_and_rounding(cases: list[tuple[list[int], float]], skipped: int) -> None:
    assert _in_bulk(cases, skipped) == [_solved(opponents, points) for opponents, points in cases]


def test_edge_cases_in_bulk_agree_with_the_solver() -> None:
    many = [1400 + 7 * k for k in range(70)]  # more games than the start's table holds
    cases = [*EDGE_CASES, (many, 41.5)]
    assert _in_bulk(cases) == [_solved(opponents, points) for opponents, points in cases]


@pytest.mark.parametrize(
    ("opponents", "points"),
    [
        ([1000, 1001], 1.0),  # root exactly 1000.5: a tie, decided by the exact route
        ([1500] * 4, 2.0),  # root exactly 1500: the lattice decides
        ([0, 0, 5000, 5000], 1.5),  # a nearly flat sum: the secant leaves the table
        ([0] * 10 + [6000] * 10, 9.5),  # P saturated between the groups: no slope, step by step down
        ([0] * 10 + [6000] * 10, 10.5),  # ... and up, until the moves run out
        ([0, 9000], 0.5),  # beyond the table
        ([1200, 1250, 2900, 2950, 2980], 2.5),  # a start far from the root
    ],
)
def test_edge_cases_agree_with_the_solver(opponents: list[int], points: float) -> None:
    assert rounded_performance(opponents, points) == _solved(opponents, points)


@pytest.mark.parametrize("points", [0.0, 2.0, -0.5])
def test_no_performance_without_a_finite_solution(points: float) -> None:
    with pytest.raises(ValueError, match="no finite rating"):
        rounded_performance([1500, 1600], points)
