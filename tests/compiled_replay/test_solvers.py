"""The pass's twins of the engine's roundings, solvers and rules give the engine's values, both
interpreted and compiled: the standard normal quantile, the roundings of spec §5 near and far
from ties, the expiry of leftover games (29 February too), the conversion of spec §8."""

from __future__ import annotations

import random
from datetime import date, timedelta
from fractions import Fraction
from math import floor
from statistics import NormalDist

import numpy as np
import pytest

from zdb.compiled_replay.arrays import coefficient_row, conversion_row, ymd
from zdb.compiled_replay.machine import INTERPRETED, Machine, compiled
from zdb.rating import CONVERSIONS, RULE_SETS, solve_rating
from zdb.rating.joint import JointEquation, solve_jointly
from zdb.rating.lattice import _HALF_ARRAY, TABLE_LIMIT, rounded_performance
from zdb.rating.rounding import round_float, rounded_float
from zdb.rating.rulesets import ClassicCoefficient, Wo2026Factor
from zdb.rating.tournament import leftover_expired


@pytest.fixture(params=["interpreted", "compiled"])
def machine(request: pytest.FixtureRequest) -> Machine:
    if request.param == "interpreted":
        return INTERPRETED
    machine = compiled()
    if machine is None:  # pragma: no cover - numba is a dependency
        pytest.skip("numba is not installed")
    return machine


def test_the_normal_quantile_is_the_standard_librarys(machine: Machine) -> None:
    inv_cdf = machine.parts["inv_cdf"]
    rng = random.Random(3)
    probabilities = [rng.random() for _ in range(20000)]
    probabilities += [1e-300, 1e-12, 1e-9, 0.0001, 0.075, 0.5, 0.925, 1 - 1e-9]
    probabilities += [k / (2 * n) for n in range(1, 80) for k in range(1, 2 * n)]
    normal = NormalDist()
    assert [inv_cdf(p) for p in probabilities] == [normal.inv_cdf(p) for p in probabilities]


# Doubles at and next to ties: x.5 exactly, float noise either side, and far from any tie.
TIES = [
    2062.4999999999995,
    2062.5,
    2062.5000000000005,
    1499.4999996,
    1499.5000004,
    1499.49,
    -3.5,
    0.5,
    1234.0000001,
    987.654321,
    *[k + 0.5 + d for k in (0, 800, 1999) for d in (-1e-7, -1e-10, 0.0, 1e-10, 1e-7, 2e-6)],
]


def test_rounding_to_an_integer_near_and_far_from_ties(machine: Machine) -> None:
    rounded = machine.parts["round_float"]
    for value in TIES:
        got, ok = rounded(value)
        assert ok
        assert got == round_float(value), value


def test_rounding_we_to_six_decimals(machine: Machine) -> None:
    round_to = machine.parts["round_to"]
    values = [v / 1000 for v in TIES] + [2.0000005, 2.0000004999999, 3.1234565, 7.0 / 3, 0.1 + 0.2]
    rng = random.Random(5)
    values += [rng.randrange(0, 20_000_000) / 1e6 + 5e-7 + rng.choice([0.0, 1e-12, -1e-12]) for _ in range(2000)]
    for value in values:
        got, ok = round_to(value, 1e6, 1000)
        assert ok
        assert got == rounded_float(value, 6), value


def test_the_denoised_integer_is_the_nine_decimal_rounding(machine: Machine) -> None:
    denoised = machine.parts["denoised"]
    for value in [0.12345678951, 0.1234567894, 12.5, 1.00000000051, 3.999999999]:
        nines, ok = denoised(value)
        assert ok
        assert nines == floor(Fraction(value) * 10**9 + Fraction(1, 2)), value
    _, ok = denoised(0.0000000005)  # 0.5 at the ninth decimal, exactly as far as a double tells
    assert not ok


def test_leftover_games_expire_as_the_engine_says(machine: Machine) -> None:
    expired = machine.parts["expired"]
    recorded_days = [date(2024, 2, 29), date(2023, 3, 1), date(2022, 12, 31), date(2024, 2, 28)]
    for recorded in recorded_days:
        for offset in range(-3, 4):
            for years in (1, 2):
                evaluated = recorded.replace(year=recorded.year + years, day=28 if recorded.day == 29 else recorded.day)
                evaluated += timedelta(days=offset)
                assert expired(ymd(recorded), ymd(evaluated), years) == leftover_expired(recorded, evaluated, years)


def test_the_conversion_of_every_rating(machine: Machine) -> None:
    convert = machine.parts["convert"]
    (conversion,) = CONVERSIONS
    row = np.array(conversion_row(conversion), dtype=np.int64)
    for rating in range(0, 3200):
        assert convert(rating, row) == conversion.convert(rating)


def test_solvers_give_the_engines_doubles(machine: Machine) -> None:
    solve = machine.parts["solve_rating"]
    search = machine.parts["performance_search"]
    joint = machine.parts["joint_solve"]
    rng = random.Random(11)
    for _ in range(300):
        count = rng.randrange(2, 12)
        opponents = [rng.randrange(800, 2600) for _ in range(count)]
        points = rng.randrange(1, 2 * count) / 2
        value, ok = solve(np.array(opponents, dtype=float), points)
        assert ok
        assert value == solve_rating([float(r) for r in opponents], points)
        m, found = search(np.array(opponents, dtype=np.int64), points, _HALF_ARRAY, TABLE_LIMIT)
        if found:
            assert m == rounded_performance(opponents, points)
    equations = [JointEquation((1500.0, 1600.0), (1,), 1.5), JointEquation((1700.0,), (0, 2), 1.0)]
    equations.append(JointEquation((1400.0, 1450.0, 1500.0), (1,), 2.5))
    x = np.zeros(3)
    fixed = np.array([r for e in equations for r in e.fixed])
    fixed_starts = np.array([0, 2, 3, 6], dtype=np.int64)
    coupled = np.array([b for e in equations for b in e.coupled], dtype=np.int64)
    coupled_starts = np.array([0, 1, 3, 4], dtype=np.int64)
    assert joint(fixed, fixed_starts, coupled, coupled_starts, np.array([e.points for e in equations]), x)
    assert x.tolist() == solve_jointly(equations)


def test_e_and_k_are_the_rules_exact_values(machine: Machine) -> None:
    """Every rating of the rule tables, every age class, column and side of expectation: the
    pass's integer arithmetic gives the engine's E (with the braking term too) and K."""
    classic_e, wo2026_k = machine.parts["classic_e"], machine.parts["wo2026_k"]
    classic, wo2026 = RULE_SETS[0].coefficient, RULE_SETS[1].coefficient
    assert isinstance(classic, ClassicCoefficient)
    assert isinstance(wo2026, Wo2026Factor)
    classic_row = coefficient_row(RULE_SETS[0])
    wo2026_row = coefficient_row(RULE_SETS[1])
    ratings = [
        *range(0, 4096, 7),
        *range(1100, 1300),
        999,
        1000,
        1001,
        1299,
        1300,
        1599,
        1600,
        1999,
        2000,
        2001,
        2199,
        2200,
        4095,
    ]
    for r0 in ratings:
        for group in range(20, 27):
            for at_least in (False, True):
                unbounded, braked = classic._unbounded_row(r0, (group - 20) * 2 + at_least)
                assert classic_e(r0, group, at_least, 20, 25, classic_row) == (unbounded, braked == 1.0, True)
                for column in range(10):
                    k = wo2026.factor(r0, group, column + 2, at_least)
                    assert wo2026_k(r0, group, column, at_least, 20, 25, wo2026_row) == float(k)
