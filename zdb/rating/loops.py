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

from math import floor, sqrt

import numpy as np
from numpy.typing import NDArray

from zdb.rating.rounding import Floats, Ints

__all__ = ["expected_sums_loop", "performance_search_loop"]

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
