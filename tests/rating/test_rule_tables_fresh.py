"""E and K of rule objects built anew, over every class of the rules, against the spec's formulas.

Why a file of its own: the rule sets of ``RULE_SETS`` are built once, when the engine is
imported, and fill their tables of E and K as entries are first needed. A rule object built
later (a future rule set added to the table, a test's own) must size and fill its tables the
same way; a table sized wrongly lets two (rating, class) pairs share an entry, and only a
grid of several classes evaluated on one fresh object shows it. The expected values are
computed here from the formulas of spec §6 and §7 as written there, with exact fractions, not
by the engine.
"""

from __future__ import annotations

from fractions import Fraction
from math import erf, exp, floor

import numpy as np
import pytest

from zdb.rating.rulesets import ClassicCoefficient, CoefficientColumns, CoefficientInput, Wo2026Factor

#: R0 on both sides of every limit of §6 and §7 (1300, 1600, 2000, 2200), far from them, two
#: whose (R0 / 1000)^4 lies just above a half (3.5125…, 6.5046…), where E rounds up, and the
#: ends of the tabulated ratings (0 and 4095 in the table, 4096 and 5000 beyond it)
RATINGS = (
    0,
    800,
    1000,
    1250,
    1299,
    1300,
    1369,
    1500,
    1597,
    1599,
    1600,
    1700,
    1999,
    2000,
    2100,
    2199,
    2200,
    2500,
    4095,
    4096,
    5000,
)
#: every age class: youth (≤ 20), each junior year (21-25), adult, unknown (counts as 26+)
AGES = (10, 20, 21, 22, 23, 24, 25, 26, 40, 99)
INDICES = tuple(range(1, 14))

#: spec §7, K0 by row and index 1-2, 3, ..., 10, ≥ 11
K0 = {
    1: (60, 48, 46, 44, 42, 40, 38, 36, 34, 32),
    2: (60, 44, 42, 40, 38, 36, 34, 32, 30, 28),
    3: (60, 41, 39, 37, 35, 33, 31, 29, 27, 25),
}


def _p(difference: int) -> float:
    """spec §4: P(D) = ½ · (1 + erf(D / 400))."""
    return 0.5 * (1 + erf(difference / 400))


def _half_up(value: Fraction) -> int:
    return floor(value + Fraction(1, 2))


def _spec_k(r0: int, age: int, index: int, at_least_expected: bool) -> Fraction:
    """spec §7: K = min(80, round_to_one_decimal(K0 · b + a))."""
    if age <= 25 and r0 < 2200:
        row = 1
    elif age >= 26 and r0 < 2000:
        row = 2
    else:
        row = 3
    k0 = K0[row][min(max(index, 2), 11) - 2]
    a = Fraction(0)
    if at_least_expected and age <= 20 and r0 < 2000:
        a = Fraction(2000 - r0, 30)
    elif at_least_expected and age >= 21 and r0 < 1600:
        a = Fraction(4)
    b = Fraction(r0 + 800, 2400) if not at_least_expected and r0 < 1600 else Fraction(1)
    return min(Fraction(80), Fraction(_half_up((k0 * b + a) * 10), 10))


def _spec_e(r0: int, age: int, index: int, at_least_expected: bool) -> int:
    """spec §6: E from E0, fB and SBr, its floor of 5 and its caps; §5 for the rounding."""
    j = 5 if age <= 20 else 10 if age <= 25 else 15
    e0 = Fraction(r0, 1000) ** 4 + j
    fb = min(Fraction(1), max(Fraction(1, 2), Fraction(r0, 2000))) if age <= 20 and at_least_expected else 1
    sbr = exp((1300 - r0) / 150) - 1 if r0 < 1300 and not at_least_expected else 0.0
    if sbr:
        # a float sum: rounded to 9 decimals first, then half up (§5)
        e = _half_up(Fraction(_half_up(Fraction(float(e0 * fb) + sbr) * 10**9), 10**9))
        return min(max(5, e), 150)
    e = max(5, _half_up(e0 * fb))
    return min(e, 5 * index if index <= 5 else 30)


def _grid() -> tuple[CoefficientColumns, list[tuple[int, int, int, bool]]]:
    cases = [(r0, age, index, ale) for r0 in RATINGS for age in AGES for index in INDICES for ale in (False, True)]
    r0s, ages, indices, ales = (np.array(column) for column in zip(*cases, strict=True))
    zeros = np.zeros(len(cases))
    columns = CoefficientColumns(r0s, indices, ages, zeros, zeros, np.ones(len(cases), np.int64), ales)
    return columns, cases


def test_a_wo2026_factor_built_anew_gives_the_k_of_spec_7_for_every_class() -> None:
    columns, cases = _grid()
    rule = Wo2026Factor()
    # The first call computes every entry and fills the table; the second reads it back.
    for _ in range(2):
        k = rule.new_ratings(columns).k
        assert k is not None
        wrong = [(case, got) for case, got in zip(cases, k.tolist(), strict=True) if got != float(_spec_k(*case))]
        assert wrong == []


def test_a_classic_coefficient_built_anew_gives_the_e_of_spec_6_for_every_class() -> None:
    columns, cases = _grid()
    rule = ClassicCoefficient()
    # The first call computes every entry and fills the table; the second reads it back.
    for _ in range(2):
        e = rule.new_ratings(columns).e
        assert e is not None
        wrong = [(case, got) for case, got in zip(cases, e.tolist(), strict=True) if got != _spec_e(*case)]
        assert wrong == []


@pytest.mark.parametrize(
    ("rule", "player", "expected_rn"),
    [
        # spec §7, seed 001: youth (14) 1400-3 against 1500, a win: K = 68 -> 1443
        (Wo2026Factor, CoefficientInput(1400, 3, 14, 1.0, _p(-100), 1, True), 1443),
        # spec §6: 958-5 (age 16) against 1108 and 1431 with 1 point: E = 5, Rn = 1033
        (ClassicCoefficient, CoefficientInput(958, 5, 16, 1.0, _p(958 - 1108) + _p(958 - 1431), 2, True), 1033),
    ],
)
def test_rule_objects_built_anew_reproduce_the_published_evaluations(
    rule: type[Wo2026Factor | ClassicCoefficient], player: CoefficientInput, expected_rn: int
) -> None:
    assert rule().new_rating(player).rn == expected_rn
