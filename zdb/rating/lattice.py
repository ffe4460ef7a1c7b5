"""Expected scores and rounded performances for integer ratings, by table look-up.

Almost every rating the evaluation meets is an integer (R0, a first rating, an Ausnahmespieler's
Rh), so a difference of two ratings is an integer and P(D) can be read from a table built once
with ``expected_score`` itself: the same double, bit for bit, at a fraction of the cost.

A performance is published rounded (spec §9.5, §5), so it is enough to find the integer m with
Σ P(m − ½ − r_j) ≤ W < Σ P(m + ½ − r_j): both sums are over half-integer differences, again
table look-ups. Where W comes within ``_TIE_MARGIN`` of either sum, the root lies so close to
a tie (x.5) that §5's nine-decimal rounding could decide it: those cases, and differences
beyond the table, take the exact solver (``solve_rating`` + ``round_float``).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import floor, sqrt
from statistics import NormalDist
from typing import cast

import numpy as np

from zdb.rating.expectation import expected_score, solve_rating
from zdb.rating.rounding import Floats, Ints, round_float

__all__ = ["TABLE_LIMIT", "expected_at", "expected_sums", "rounded_performance", "rounded_performances"]

#: differences within ±TABLE_LIMIT are tabulated; beyond ±2400, P is 0.0 or 1.0 to the last bit
TABLE_LIMIT = 4000
#: W this close to a lattice sum: the root is within ~1e-7 of a tie, decided exactly instead
_TIE_MARGIN = 1e-7
_MAX_MOVES = 8
_VARIANCE = 80000.0  # σ² of spec §4
_NORMAL = NormalDist()

#: P(d) at _AT[d + TABLE_LIMIT]; P(d + ½) at _HALF[d + TABLE_LIMIT]
_AT = tuple(expected_score(float(d)) for d in range(-TABLE_LIMIT, TABLE_LIMIT + 1))
_HALF = tuple(expected_score(d + 0.5) for d in range(-TABLE_LIMIT, TABLE_LIMIT + 1))
_AT_ARRAY = np.array(_AT)
_HALF_ARRAY = np.array(_HALF)
_QUANTILES: dict[tuple[float, int], float] = {}
#: half-points on either side of the bulk search's estimate; farther answers are searched alone
_WINDOW = 4
#: Φ⁻¹(W / n) at [n, 2W] for n below this (W a multiple of ½)
_QUANTILE_GAMES = 64
_QUANTILE_TABLE = np.array(
    [
        [_NORMAL.inv_cdf(min(max(h / (2 * max(n, 1)), 1e-9), 1 - 1e-9)) for h in range(2 * _QUANTILE_GAMES)]
        for n in range(_QUANTILE_GAMES)
    ]
)


def expected_at(difference: int) -> float:
    """``expected_score(difference)`` for an integer difference (the identical double)."""
    if -TABLE_LIMIT <= difference <= TABLE_LIMIT:
        return _AT[difference + TABLE_LIMIT]
    return expected_score(float(difference))


def expected_sums(own: Ints, opponents: Ints, owner: Ints, size: int) -> Floats:
    """Σ P(own[p] − opponents[e]) over the entries e with ``owner[e] == p``, for every p < size.

    Each player's sum is taken in entry order from 0.0 (``bincount`` adds sequentially), so it is
    the same double as adding ``expected_at`` one game after the other. Beyond the table P is
    0.0 or 1.0 to the last bit, which the table's ends hold: clipping reads the exact value.
    """
    index = np.minimum(np.maximum(own[owner] - opponents + TABLE_LIMIT, 0), 2 * TABLE_LIMIT)
    return cast(Floats, np.bincount(owner, _AT_ARRAY[index], size))  # weighted: floats


def _quantile(points: float, count: int) -> float:
    """Φ⁻¹(W / n), cached: W and n take few values."""
    key = (points, count)
    value = _QUANTILES.get(key)
    if value is None:
        value = _QUANTILES[key] = _NORMAL.inv_cdf(points / count)
    return value


def rounded_performance(opponents: Sequence[int], points: float) -> int:
    """``round_float(solve_rating(opponents, points))`` for integer opponent ratings.

    Requires 0 < points < len(opponents), like ``solve_rating``.
    """
    count = len(opponents)
    if not 0.0 < points < count:
        raise ValueError(f"no finite rating for {points} points in {count} games")
    # Start: were the opponents' ratings normally distributed with variance s², the solution
    # would be mean + √(σ² + s²)·Φ⁻¹(W / n); usually right or one lattice step away.
    mean = sum(opponents) / count
    spread = sum((r - mean) ** 2 for r in opponents) / count
    m = floor(mean + sqrt(_VARIANCE + spread) * _quantile(points, count) + 0.5)
    # Table indexes of m ± ½ − r for every r must stay inside the table for all m tried.
    low_room = min(opponents) + TABLE_LIMIT
    high_room = max(opponents) - TABLE_LIMIT
    half = _HALF
    for _ in range(_MAX_MOVES):
        if not (high_room <= m - 1 and m <= low_room):
            break
        base = m + TABLE_LIMIT
        lower = base - 1
        below = -points  # f(m − ½) = Σ P((m − 1 − r) + ½) − W
        above = -points  # f(m + ½)
        for r in opponents:
            below += half[lower - r]
            above += half[base - r]
        if below < -_TIE_MARGIN and above > _TIE_MARGIN:
            return m
        slope = above - below  # f rises by this much over one point
        if below > _TIE_MARGIN:  # the root lies below m − ½
            m = min(m - 1, floor(m - below / slope)) if slope > 0.0 else m - 1
        elif above < -_TIE_MARGIN:  # the root lies above m + ½
            m = max(m + 1, floor(m + 1 - above / slope)) if slope > 0.0 else m + 1
        else:
            break  # the root is within reach of a tie: decided exactly below
    return round_float(solve_rating([float(r) for r in opponents], points))


def rounded_performances(owner: Ints, opponents: Ints, points: Floats, counts: Ints, players: Ints) -> Ints:
    """``rounded_performance`` of each player in ``players``, all searched together.

    A player p's games are the entries e with ``owner[e] == p``, against ``opponents[e]``; he
    scored ``points[p]`` in ``counts[p]`` of them, 0 < points < counts. One secant step on the
    lattice from the normal approximation's start lands within a few points of the answer;
    the lattice sums at ``_WINDOW`` half-points on either side of it then decide. An answer m is
    taken only where W lies clearly between the sums at m ∓ ½, which makes m the rounded root
    whatever order the sums were added in; every other player (near a tie, or the answer
    outside the window) is searched by ``rounded_performance`` alone.
    """
    chosen = len(players)
    local = np.full(len(points), -1, dtype=np.int64)
    local[players] = np.arange(chosen)
    mine = local[owner] >= 0
    entry_player, entry_rating = local[owner[mine]], opponents[mine]
    w, n = points[players], counts[players]
    mean = np.bincount(entry_player, entry_rating, chosen) / n
    spread = np.bincount(entry_player, (entry_rating - mean[entry_player]) ** 2, chosen) / n
    m = np.floor(mean + np.sqrt(_VARIANCE + spread) * _quantiles(w, n) + 0.5).astype(np.int64)
    # Table indexes beyond either end are clipped: there P is 0.0 or 1.0 to the last bit.
    offset = TABLE_LIMIT - entry_rating
    base = np.minimum(np.maximum(m[entry_player] + offset, 1), 2 * TABLE_LIMIT)  # m + ½ − r
    below = np.bincount(entry_player, _HALF_ARRAY[base - 1], chosen) - w
    slope = np.bincount(entry_player, _HALF_ARRAY[base], chosen) - w - below
    m = np.floor(m - below / np.where(slope > 0.0, slope, np.inf)).astype(np.int64)
    # F[p, j] = f(m_p − _WINDOW − ½ + j), j = 0 .. 2·_WINDOW + 1
    width = 2 * _WINDOW + 2
    steps = np.arange(-_WINDOW - 1, _WINDOW + 1)
    cells = np.minimum(np.maximum((m[entry_player] + offset)[:, None] + steps, 0), 2 * TABLE_LIMIT)
    flat = (entry_player * width)[:, None] + np.arange(width)
    sums = np.bincount(flat.ravel(), _HALF_ARRAY[cells].ravel(), chosen * width).reshape(chosen, width) - w[:, None]
    clear_below = (sums < -_TIE_MARGIN).sum(axis=1)  # half-points below the root (sums rise with j)
    j = np.minimum(np.maximum(clear_below, 1), width - 1)
    rows = np.arange(chosen)
    found = (
        (clear_below >= 1) & (clear_below < width) & (sums[rows, j - 1] < -_TIE_MARGIN) & (sums[rows, j] > _TIE_MARGIN)
    )
    result: Ints = m - _WINDOW - 1 + j
    for a in np.flatnonzero(~found).tolist():
        result[a] = rounded_performance(entry_rating[entry_player == a].tolist(), float(w[a]))
    return result


def _quantiles(points: Floats, counts: Ints) -> Floats:
    """Φ⁻¹(W / n) for every player (a table for the usual numbers of games)."""
    doubled = (2 * points).astype(np.int64)
    inside = counts < _QUANTILE_GAMES
    values: Floats = _QUANTILE_TABLE[np.where(inside, counts, 1), np.where(inside, doubled, 1)]
    for a in np.flatnonzero(~inside).tolist():
        values[a] = _quantile(float(points[a]), int(counts[a]))
    return values
