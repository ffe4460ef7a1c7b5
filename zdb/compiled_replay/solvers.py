"""The engine's solvers and roundings as plain loops over arrays, for the compiled pass.

Each function here is a step-for-step twin of one in ``zdb.rating`` (named in its docstring):
the same operations in the same order, so the same doubles. Where the engine decides a case
exactly with fractions (a value within reach of a tie, spec §5), the twin answers ``ok = False``
and the pass hands the tournament to the engine itself.
"""

from __future__ import annotations

from math import erf, exp, floor, sqrt

import numpy as np
from numpy.typing import NDArray

from zdb.compiled_replay.normal import inv_cdf

__all__ = [
    "classic_e",
    "convert",
    "denoised",
    "expired",
    "joint_solve",
    "performance_search",
    "round_float",
    "round_to",
    "solve_rating",
    "wo2026_k",
]

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]

_SCALE = 400.0  # spec §4
_DENSITY = 1.0 / (_SCALE * sqrt(3.141592653589793))
_SIGMA = sqrt(80000.0)
_VARIANCE = 80000.0
_CLEAR_OF_TIE = 1e-6  # rounding.round_float
_TIE_MARGIN = 1e-7  # lattice._TIE_MARGIN
_MAX_MOVES = 8  # lattice._MAX_MOVES
_TOLERANCE = 1e-10  # expectation.SOLVE_TOLERANCE
_UNSOLVED = -1e300


def denoised(value: float) -> tuple[int, bool]:
    """spec §5's first step, ``rounding._denoised``: the double rounded half up to 9 decimals,
    as the integer N with value ≈ N / 10⁹. The product value · 10⁹ is a double within half a
    unit of its last place of the exact one, so N is certain unless that product lies within
    its error of a half-integer: then ``ok`` is false (the engine decides with fractions)."""
    scaled = value * 1e9
    lower = floor(scaled)
    if abs(scaled - lower - 0.5) <= 1e-4 + abs(scaled) * 1e-15:
        return 0, False
    return int(lower) + (1 if scaled - lower > 0.5 else 0), True


def round_float(value: float) -> tuple[int, bool]:
    """``rounding.round_float``: clear of a tie by the float, near one by the 9-decimal
    denoising and an exact half-up of the integer it gives."""
    lower = floor(value)
    if abs(value - lower - 0.5) > _CLEAR_OF_TIE:
        return (lower + 1 if value - lower > 0.5 else lower), True
    nines, ok = denoised(value)
    return (nines + 500_000_000) // 1_000_000_000, ok


def round_to(value: float, scale: float, unit: int) -> tuple[float, bool]:
    """``rounding.rounded_floats`` of one value to the decimals of ``scale`` (10 ** decimals);
    ``unit`` is 10 ** (9 − decimals): near a tie, the denoised integer rounded half up by it."""
    scaled = value * scale
    lower = floor(scaled)
    fraction = scaled - lower
    if abs(fraction - 0.5) <= scale * 1e-9:
        nines, ok = denoised(value)
        return ((nines + unit // 2) // unit) / scale, ok
    return (lower + (1.0 if fraction > 0.5 else 0.0)) / scale, True


def expired(recorded: int, evaluated: int, years: int) -> bool:
    """``tournament.leftover_expired`` on dates written as yyyymmdd (29 February plus whole
    years is 28 February when that year has none)."""
    year = recorded // 10000 + years
    month_day = recorded % 10000
    if month_day == 229 and not (year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)):
        month_day = 228
    return year * 10000 + month_day < evaluated


def convert(rating: int, conversion: Ints) -> int:
    """``rulesets.Conversion.convert``; ``conversion`` holds date, low limit, low add, high
    limit, factor's numerator and denominator, offset, floor, index increment. The exact
    rational rounding half up is ⌊(2·(num·R + offset·den) + den) / (2·den)⌋ in integers."""
    if rating <= conversion[1]:
        value = rating + conversion[2]
    elif rating <= conversion[3]:
        den = conversion[5]
        value = (2 * (conversion[4] * rating + conversion[6] * den) + den) // (2 * den)
    else:
        value = rating
    return int(max(conversion[7], value))


def solve_rating(opponents: Floats, points: float) -> tuple[float, bool]:
    """``expectation.solve_rating`` from its own start (0 < points < len(opponents))."""
    count = opponents.size
    total = 0.0
    for r in opponents:
        total += r
    rating = total / count + _SIGMA * inv_cdf(points / count)
    low, high = -np.inf, np.inf
    f_low = f_high = 0.0
    for _ in range(200):
        value = -points
        slope = 0.0
        for opponent in opponents:
            z = (rating - opponent) / _SCALE
            value += 0.5 * (1.0 + erf(z))
            slope += exp(-z * z)
        if value == 0.0:
            return rating, True
        if value > 0.0:
            high, f_high = rating, value
        else:
            low, f_low = rating, value
        slope *= _DENSITY
        step = value / slope if slope > 0.0 else np.inf
        candidate = rating - max(-_SCALE, min(_SCALE, step))
        if low < candidate < high and abs(step) < 1e-5:
            return candidate, True
        if not low < candidate < high:
            if low == -np.inf or high == np.inf:
                candidate = rating - _SCALE if value > 0.0 else rating + _SCALE
            else:
                candidate = low - f_low * (high - low) / (f_high - f_low)
        if abs(candidate - rating) < _TOLERANCE:
            return candidate, True
        rating = candidate
    return 0.0, False


def performance_search(ratings: Ints, points: float, half: Floats, limit: int) -> tuple[int, bool]:
    """``lattice.rounded_performance``'s lattice search over integer opponent ratings; ``ok``
    false where it came near a tie or left the table (then the exact solver decides)."""
    count = ratings.size
    total = 0.0
    lowest = highest = ratings[0]
    for r in ratings:
        total += r
        lowest = min(lowest, r)
        highest = max(highest, r)
    mean = total / count
    spread = 0.0
    for r in ratings:
        spread += (r - mean) ** 2
    spread /= count
    m = floor(mean + sqrt(_VARIANCE + spread) * inv_cdf(points / count) + 0.5)
    low_room = lowest + limit
    high_room = highest - limit
    for _ in range(_MAX_MOVES):
        if not (high_room <= m - 1 and m <= low_room):
            break
        base = m + limit
        below = -points
        above = -points
        for r in ratings:
            below += half[base - 1 - r]
            above += half[base - r]
        if below < -_TIE_MARGIN and above > _TIE_MARGIN:
            return m, True
        slope = above - below
        if below > _TIE_MARGIN:
            m = min(m - 1, floor(m - below / slope)) if slope > 0.0 else m - 1
        elif above < -_TIE_MARGIN:
            m = max(m + 1, floor(m + 1 - above / slope)) if slope > 0.0 else m + 1
        else:
            break
    return 0, False


def joint_solve(  # noqa: PLR0917 - a compiled call takes its arrays by position
    fixed: Floats, fixed_starts: Ints, coupled: Ints, coupled_starts: Ints, points: Floats, x: Floats
) -> bool:
    """``joint.solve_jointly`` of one system into ``x``, step for step (``loops.joint_solve_loop``
    of one group): equation a has the fixed opponents ``fixed[fixed_starts[a]:fixed_starts[a + 1]]``,
    the other unknowns at ``coupled[...]``, ``points[a]``. False where it did not converge."""
    size = points.size
    total = 0.0
    for e in range(fixed_starts[size]):
        total += fixed[e]
    start = total / fixed_starts[size]
    any_coupled = False
    for a in range(size):
        unknowns = coupled_starts[a + 1] - coupled_starts[a]
        any_coupled = any_coupled or unknowns > 0
        opponents = np.empty(fixed_starts[a + 1] - fixed_starts[a] + unknowns)
        opponents[: opponents.size - unknowns] = fixed[fixed_starts[a] : fixed_starts[a + 1]]
        opponents[opponents.size - unknowns :] = start
        value, ok = solve_rating(opponents, points[a])
        if not ok:
            return False
        x[a] = value
    if not any_coupled:
        return True
    residual = np.empty(size)
    for a in range(size):
        xa = x[a]
        value = -points[a]
        for e in range(fixed_starts[a], fixed_starts[a + 1]):
            value += 0.5 * (1.0 + erf((xa - fixed[e]) / _SCALE))
        for e in range(coupled_starts[a], coupled_starts[a + 1]):
            value += 0.5 * (1.0 + erf((xa - x[coupled[e]]) / _SCALE))
        residual[a] = value
    for _ in range(200):
        rows = np.zeros((size, size + 1))
        for a in range(size):
            xa = x[a]
            diagonal = 0.0
            for e in range(fixed_starts[a], fixed_starts[a + 1]):
                z = (xa - fixed[e]) / _SCALE
                diagonal += exp(-z * z)
            for e in range(coupled_starts[a], coupled_starts[a + 1]):
                b = coupled[e]
                z = (xa - x[b]) / _SCALE
                weight = exp(-z * z)
                diagonal += weight
                rows[a, b] -= weight * _DENSITY
            rows[a, a] += diagonal * _DENSITY
            rows[a, size] = -residual[a]
        for col in range(size):
            pivot = col
            for below in range(col + 1, size):
                if abs(rows[below, col]) > abs(rows[pivot, col]):
                    pivot = below
            if pivot != col:
                for c in range(size + 1):
                    rows[col, c], rows[pivot, c] = rows[pivot, c], rows[col, c]
            lead = rows[col, col]
            for below in range(col + 1, size):
                factor = rows[below, col] / lead
                if factor != 0.0:
                    for c in range(col, size + 1):
                        rows[below, c] -= factor * rows[col, c]
        step = np.zeros(size)
        for a in range(size - 1, -1, -1):
            acc = 0.0
            for c in range(a + 1, size):
                acc += rows[a, c] * step[c]
            step[a] = (rows[a, size] - acc) / rows[a, a]
        longest = 0.0
        for d in step:
            longest = max(longest, abs(d))
        if longest < _TOLERANCE:
            for a in range(size):
                x[a] += step[a]
            return True
        if longest > _SCALE:
            for a in range(size):
                step[a] = step[a] * _SCALE / longest
        norm = 0.0
        for f in residual:
            norm += f * f
        scale = 1.0
        base = x.copy()
        while True:
            for a in range(size):
                x[a] = base[a] + scale * step[a]
            trial = np.empty(size)
            for a in range(size):
                xa = x[a]
                value = -points[a]
                for e in range(fixed_starts[a], fixed_starts[a + 1]):
                    value += 0.5 * (1.0 + erf((xa - fixed[e]) / _SCALE))
                for e in range(coupled_starts[a], coupled_starts[a + 1]):
                    value += 0.5 * (1.0 + erf((xa - x[coupled[e]]) / _SCALE))
                trial[a] = value
            trial_norm = 0.0
            for f in trial:
                trial_norm += f * f
            if trial_norm <= (1.0 - 1e-4 * scale) * norm or scale < 1e-6:
                break
            scale *= 0.5
        residual = trial
    return False


def classic_e(  # noqa: PLR0917 - a compiled call takes its arguments by position
    r0: int, group: int, at_least: bool, youth_age: int, junior_age: int, c: Ints
) -> tuple[int, bool, bool]:
    """E before its caps and whether the braking term applies
    (``rulesets.ClassicCoefficient._unbounded_row``): E0 · fB rounded half up, exact in integers
    (E0 = (R0 / 1000)⁴ + J over 10¹², fB a fraction); with the braking term SBr, E0 (fB is 1
    then) as the nearest double plus exp((1300 − R0) / 150) − 1, rounded by spec §5. ``c``
    holds J of youth, junior and adult, fB's least value as numerator and denominator, fB's
    divisor, SBr's limit and scale; ``group`` is the age class (20 or younger counts as 20).
    ``ok`` false where the braked value lies within reach of a tie."""
    j = c[0] if group <= youth_age else (c[1] if group <= junior_age else c[2])
    scale = 1_000_000_000_000
    e0 = r0 * r0 * r0 * r0 + j * scale
    if r0 < c[6] and not at_least:
        # Below 1300 E0 < 2⁵³ and 10¹² are exact doubles: their quotient is float(E0), as the
        # engine's fraction converts.
        value, ok = round_float(e0 / scale + (exp((c[6] - r0) / c[7]) - 1.0))
        return value, True, ok
    numerator, denominator = 1, 1
    if group <= youth_age and at_least:
        if r0 >= c[5]:
            numerator, denominator = 1, 1
        elif r0 * c[4] <= c[3] * c[5]:
            numerator, denominator = c[3], c[4]
        else:
            numerator, denominator = r0, c[5]
    whole = scale * denominator
    return int((2 * e0 * numerator + whole) // (2 * whole)), False, True


def wo2026_k(  # noqa: PLR0917 - a compiled call takes its arguments by position
    r0: int, group: int, column: int, at_least: bool, youth_age: int, young_age: int, c: Ints
) -> float:
    """K (``rulesets.Wo2026Factor.factor``), exact in integers: K0 · b + a over the common
    denominator of b and a, rounded half up to one decimal, at most K max; as the float the
    table holds. ``c`` holds the row limits, the bonuses, the brake, K max and the K0 rows."""
    young_limit, adult_limit, youth_below, youth_divisor = c[0], c[1], c[2], c[3]
    adult_below, adult_bonus, brake_below, brake_offset, brake_divisor, k_max = c[4], c[5], c[6], c[7], c[8], c[9]
    if group <= young_age and r0 < young_limit:
        row = 0
    elif group > young_age and r0 < adult_limit:
        row = 1
    else:
        row = 2
    k0 = c[10 + row * 10 + column]
    denominator = brake_divisor * youth_divisor
    braked = not at_least and r0 < brake_below
    numerator = k0 * (r0 + brake_offset) * youth_divisor if braked else k0 * denominator
    if at_least:
        if group <= youth_age and r0 < youth_below:
            numerator += (youth_below - r0) * brake_divisor
        elif group > youth_age and r0 < adult_below:
            numerator += adult_bonus * denominator
    tenths = (20 * numerator + denominator) // (2 * denominator)
    return float(min(10 * k_max, tenths) / 10.0)
