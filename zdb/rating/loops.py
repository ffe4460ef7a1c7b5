"""The evaluation's hot loops, written once as plain Python over arrays.

These functions are the source of the compiled kernel (``kernel``): the same code runs
interpreted (the tests run it so, and every line is covered) or compiled to machine code, one
call per batch of tournaments instead of one array operation after another. They use only what
both can run: integer and float arithmetic, ``math``, loops over numpy arrays, and tables
passed in as arguments (never module globals, which a compiler would freeze).

Exactness: a sum that is published (We) is added in entry order from 0.0, as ``bincount`` adds,
so it is the same double; a performance is accepted only where the points lie clearly between
two lattice sums, which no summation order can change; every other case is handed back to the
exact scalar path (``found`` false).
"""

from __future__ import annotations

from math import erf, exp, floor, sqrt

import numpy as np
from numpy.typing import NDArray

from zdb.rating.rounding import Floats, Ints

__all__ = ["expected_sums_loop", "joint_solve_loop", "performance_search_loop"]

Flags = NDArray[np.bool_]


def expected_sums_loop(  # noqa: PLR0917 - a compiled call takes its arrays by position
    own: Ints, opponents: Ints, owner: Ints, size: int, table: Floats, limit: int
) -> Floats:
    """Σ table[own[p] − opponents[e] + limit] over the entries e of each player p, in entry
    order from 0.0; indexes are clipped to the table, whose ends hold P = 0.0 and 1.0 exactly."""
    sums = np.zeros(size)
    last = 2 * limit
    for e in range(owner.size):
        p = owner[e]
        slot = own[p] - opponents[e] + limit
        sums[p] += table[min(max(slot, 0), last)]
    return sums


def performance_search_loop(  # noqa: PLR0917 - a compiled call takes its arrays by position
    owner: Ints,
    opponents: Ints,
    points: Floats,
    counts: Ints,
    players: Ints,
    quantiles: Floats,
    half: Floats,
    limit: int,
    variance: float,
    tie_margin: float,
    max_moves: int,
) -> tuple[Ints, Flags]:
    """The rounded performance of each player in ``players`` by the lattice search of
    ``lattice.rounded_performance``, all in one call.

    A player p's games are the entries e with ``owner[e] == p`` against ``opponents[e]``; he
    scored ``points[p]`` in ``counts[p]`` of them; ``quantiles[a]`` is Φ⁻¹(W / n) of
    ``players[a]``. ``found[a]`` is false where the search came near a tie (x.5) or left the
    table: that player must be decided by the exact scalar path.
    """
    chosen = players.size
    local = np.full(points.size, -1, dtype=np.int64)
    for a in range(chosen):
        local[players[a]] = a
    # Each chosen player's entries, contiguous and in entry order (a stable counting sort).
    starts = np.zeros(chosen + 1, dtype=np.int64)
    for e in range(owner.size):
        a = local[owner[e]]
        if a >= 0:
            starts[a + 1] += 1
    for a in range(chosen):
        starts[a + 1] += starts[a]
    filled = starts[:-1].copy()
    ratings = np.empty(starts[chosen], dtype=np.int64)
    for e in range(owner.size):
        a = local[owner[e]]
        if a >= 0:
            ratings[filled[a]] = opponents[e]
            filled[a] += 1
    result = np.zeros(chosen, dtype=np.int64)
    found = np.zeros(chosen, dtype=np.bool_)
    for a in range(chosen):
        first, stop = starts[a], starts[a + 1]
        if stop == first:
            continue  # no rated game: no performance (the scalar path says why)
        p = players[a]
        w = points[p]
        n = counts[p]
        total = 0.0
        lowest = highest = ratings[first]
        for e in range(first, stop):
            r = ratings[e]
            total += r
            lowest = min(lowest, r)
            highest = max(highest, r)
        mean = total / n
        spread = 0.0
        for e in range(first, stop):
            spread += (ratings[e] - mean) ** 2
        spread /= n
        # Start where the root would lie were the opponents normally distributed.
        m = floor(mean + sqrt(variance + spread) * quantiles[a] + 0.5)
        low_room = lowest + limit
        high_room = highest - limit
        for _ in range(max_moves):
            if not (high_room <= m - 1 and m <= low_room):
                break  # a lattice sum would reach beyond the table
            base = m + limit
            below = -w  # f(m − ½)
            above = -w  # f(m + ½)
            for e in range(first, stop):
                r = ratings[e]
                below += half[base - 1 - r]
                above += half[base - r]
            if below < -tie_margin and above > tie_margin:
                result[a] = m
                found[a] = True
                break
            slope = above - below
            if below > tie_margin:  # the root lies below m − ½
                m = min(m - 1, floor(m - below / slope)) if slope > 0.0 else m - 1
            elif above < -tie_margin:  # the root lies above m + ½
                m = max(m + 1, floor(m + 1 - above / slope)) if slope > 0.0 else m + 1
            else:
                break  # within reach of a tie
    return result, found


_SCALE = 400.0  # spec §4, as in ``expectation`` and ``joint``
_DENSITY = 1.0 / (_SCALE * sqrt(3.141592653589793))
_SIGMA = sqrt(80000.0)
#: no rating is this: marks an equation whose solver ran out of steps
_UNSOLVED = -1e300


def joint_solve_loop(  # noqa: PLR0917 - a compiled call takes its arrays by position
    fixed: Floats,
    fixed_starts: Ints,
    coupled: Ints,
    coupled_starts: Ints,
    points: Floats,
    quantiles: Floats,
    group_starts: Ints,
    tolerance: float,
) -> tuple[Floats, Flags]:
    """``joint.solve_jointly`` of every group, step for step (the same doubles): equation a has
    the fixed opponents ``fixed[fixed_starts[a]:fixed_starts[a + 1]]``, the other unknowns of
    its group at ``coupled[...]`` (positions within the group), ``points[a]``, and
    ``quantiles[a]`` = Φ⁻¹(W / n) of its start (fixed opponents and unknowns at the group's
    mean); group g holds equations ``group_starts[g]`` to ``group_starts[g + 1]``. ``solved[g]``
    is false where a group did not converge: the scalar path decides it."""
    x = np.zeros(points.size)
    solved = np.ones(group_starts.size - 1, dtype=np.bool_)
    for g in range(group_starts.size - 1):
        first, stop = group_starts[g], group_starts[g + 1]
        size = stop - first
        total = 0.0
        for e in range(fixed_starts[first], fixed_starts[stop]):
            total += fixed[e]
        start = total / (fixed_starts[stop] - fixed_starts[first])
        any_coupled = False
        for a in range(first, stop):
            unknowns = coupled_starts[a + 1] - coupled_starts[a]
            any_coupled = any_coupled or unknowns > 0
            opponents = np.empty(fixed_starts[a + 1] - fixed_starts[a] + unknowns)
            opponents[: opponents.size - unknowns] = fixed[fixed_starts[a] : fixed_starts[a + 1]]
            opponents[opponents.size - unknowns :] = start
            x[a] = _UNSOLVED
            # ``expectation.solve_rating``, step for step (its start's Φ⁻¹ given).
            count = opponents.size
            total = 0.0
            for rating in opponents:
                total += rating
            rating = total / count + _SIGMA * quantiles[a]
            low, high = -np.inf, np.inf
            f_low = f_high = 0.0
            for _ in range(200):  # pragma: no branch - bisection converges long before
                value = -points[a]
                slope = 0.0
                for opponent in opponents:
                    z = (rating - opponent) / _SCALE
                    value += 0.5 * (1.0 + erf(z))
                    slope += exp(-z * z)
                if value == 0.0:
                    x[a] = rating
                    break
                if value > 0.0:
                    high, f_high = rating, value
                else:
                    low, f_low = rating, value
                slope *= _DENSITY
                newton = value / slope if slope > 0.0 else np.inf
                candidate = rating - max(-_SCALE, min(_SCALE, newton))
                if low < candidate < high and abs(newton) < 1e-5:
                    x[a] = candidate
                    break
                if not low < candidate < high:
                    if low == -np.inf or high == np.inf:
                        candidate = rating - _SCALE if value > 0.0 else rating + _SCALE
                    else:
                        candidate = low - f_low * (high - low) / (f_high - f_low)
                if abs(candidate - rating) < tolerance:
                    x[a] = candidate
                    break
                rating = candidate
            solved[g] = solved[g] and x[a] != _UNSOLVED
        if not any_coupled:
            continue
        # F (``joint._residuals``)
        residual = np.empty(size)
        for a in range(first, stop):
            xa = x[a]
            value = -points[a]
            for e in range(fixed_starts[a], fixed_starts[a + 1]):
                value += 0.5 * (1.0 + erf((xa - fixed[e]) / _SCALE))
            for e in range(coupled_starts[a], coupled_starts[a + 1]):
                value += 0.5 * (1.0 + erf((xa - x[first + coupled[e]]) / _SCALE))
            residual[a - first] = value
        done = False
        for _ in range(200):  # pragma: no branch - Newton converges long before
            # The Jacobian (``joint._jacobian``) with the right-hand side -F as its last column.
            rows = np.zeros((size, size + 1))
            for a in range(first, stop):
                xa = x[a]
                diagonal = 0.0
                for e in range(fixed_starts[a], fixed_starts[a + 1]):
                    z = (xa - fixed[e]) / _SCALE
                    diagonal += exp(-z * z)
                for e in range(coupled_starts[a], coupled_starts[a + 1]):
                    b = coupled[e]
                    z = (xa - x[first + b]) / _SCALE
                    weight = exp(-z * z)
                    diagonal += weight
                    rows[a - first, b] -= weight * _DENSITY
                rows[a - first, a - first] += diagonal * _DENSITY
                rows[a - first, size] = -residual[a - first]
            # Gaussian elimination with partial pivoting (``joint._solve_linear``).
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
            if longest < tolerance:
                for a in range(size):
                    x[first + a] += step[a]
                done = True
                break
            if longest > _SCALE:  # the trust region (``joint._MAX_MOVE``)
                for a in range(size):
                    step[a] = step[a] * _SCALE / longest
            norm = 0.0
            for f in residual:
                norm += f * f
            scale = 1.0
            base = x[first:stop].copy()
            while True:
                for a in range(size):
                    x[first + a] = base[a] + scale * step[a]
                trial = np.empty(size)
                for a in range(first, stop):
                    xa = x[a]
                    value = -points[a]
                    for e in range(fixed_starts[a], fixed_starts[a + 1]):
                        value += 0.5 * (1.0 + erf((xa - fixed[e]) / _SCALE))
                    for e in range(coupled_starts[a], coupled_starts[a + 1]):
                        value += 0.5 * (1.0 + erf((xa - x[first + coupled[e]]) / _SCALE))
                    trial[a - first] = value
                trial_norm = 0.0
                for f in trial:
                    trial_norm += f * f
                if trial_norm <= (1.0 - 1e-4 * scale) * norm or scale < 1e-6:
                    break
                scale *= 0.5
            residual = trial
        solved[g] = solved[g] and done
    return x, solved
