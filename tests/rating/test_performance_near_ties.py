"""Rounded performances at the edges of the lattice search: a root within a millionth of a
point of a tie (x.5), on either side, which the search must leave to the exact route (it may
answer only where W lies clearly between two lattice sums); a performance beyond the table's
4000 points above an opponent, and one 4000 below; one just above 4000 in bulk; 64 games,
beyond its table of Φ⁻¹. Each found by a change to the search (a
mutant, docs/mutation.md) that every other test let pass.

The expected values come from spec §4 and §5 alone: the root is found here by bisection on
Σ ½ · (1 + erf((R − r) / 400)) = W, independently of the engine, or follows from P(0) = ½.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.rating.performance_roots import performance_root
from zdb.rating.lattice import rounded_performance, rounded_performances


# 1600 and 1701 with one point of two: the root is 1650.5 exactly (P is symmetric). A lost game
# against 3300 moves it down by about 10⁻⁶, a won game against 1 moves it up as much: beyond the
# nine decimals of spec §5, so they round to 1650 and 1651.
@pytest.mark.parametrize(
    ("opponents", "points", "expected"),
    [([1600, 1701, 3300], 1.0, 1650), ([3300, 1701, 1600], 1.0, 1650), ([1600, 1701, 1], 2.0, 1651)],
)
def test_a_root_a_millionth_from_a_tie_rounds_to_its_side(opponents: list[int], points: float, expected: int) -> None:
    distance = performance_root(opponents, points) - 1650.5
    assert 5e-7 < abs(distance) < 2e-6 and (distance > 0) == (expected == 1651)
    assert rounded_performance(opponents, points) == expected
    owner = np.repeat(np.arange(2), len(opponents))
    ratings = np.array(opponents * 2, dtype=np.int64)
    found = rounded_performances(
        owner, ratings, np.array([points] * 2), np.array([len(opponents)] * 2, dtype=np.int64), np.arange(2)
    )
    assert found.tolist() == [expected, expected]


# spec §4: no cap on D. Against 0 and 9000 with 1½ points the game against 0 is won with P = 1
# to the last bit, so P(R − 9000) = ½: R = 9000, more than the table's 4000 above an opponent.
def test_a_performance_far_above_an_opponent_is_read_beyond_the_table() -> None:
    assert performance_root([0, 9000], 1.5) == pytest.approx(9000, abs=1e-6)
    found = rounded_performances(
        np.array([0, 0], dtype=np.int64),
        np.array([0, 9000], dtype=np.int64),
        np.array([1.5]),
        np.array([2], dtype=np.int64),
        np.array([0]),
    )
    assert found.tolist() == [9000]
    assert rounded_performance([0, 9000], 1.5) == 9000


# 64 games, the first number of games the bulk search's table of Φ⁻¹ does not hold: 64
# opponents of 1500 and 32 points give 1500 exactly (P(0) = ½, spec §4).
def test_a_performance_over_64_games_in_bulk() -> None:
    found = rounded_performances(
        np.zeros(64, dtype=np.int64),
        np.full(64, 1500, dtype=np.int64),
        np.array([32.0]),
        np.array([64], dtype=np.int64),
        np.array([0]),
    )
    assert found.tolist() == [1500]


# 1,000 games against 1000 and one against 5000, 500 points: P(R − 5000) is 0 to the last bit
# near R = 1000, so the root is 1000 (P(0) = ½), 4000 below the strongest opponent. The search
# comes down to 1000 from its start a few points above and must leave that place, where
# m − ½ − 5000 lies beyond the table, to the exact route: reading the table past its low end
# would count the game against 5000 as won there.
def test_a_performance_4000_below_an_opponent_is_not_read_past_the_table() -> None:
    opponents = [1000] * 1000 + [5000]
    assert performance_root(opponents, 500.0) == pytest.approx(1000, abs=1e-6)
    assert rounded_performance(opponents, 500.0) == 1000


# One opponent of 4001 (or two, or five) and half the points: the root is 4001 (P(0) = ½). The
# bulk search's window around its estimate must read P at m − r; read at m + r − 8000 it
# crosses ½ two points lower, at 8000 − 4001 = 3999, inside the window.
@pytest.mark.parametrize("count", [1, 2, 5])
def test_a_performance_just_above_4000_in_bulk(count: int) -> None:
    opponents = [4001] * count
    points = count / 2
    assert performance_root(opponents, points) == pytest.approx(4001, abs=1e-6)
    found = rounded_performances(
        np.zeros(count, dtype=np.int64),
        np.array(opponents, dtype=np.int64),
        np.array([points]),
        np.array([count], dtype=np.int64),
        np.array([0]),
    )
    assert found.tolist() == [4001]
