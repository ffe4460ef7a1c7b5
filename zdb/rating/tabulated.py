"""Exact rule terms, tabulated as they are first needed.

E of the classic rules and K of WO 2026 are exact rationals of a rating and a few small
classes (age group, index column, above or below expectation). The rule classes compute them
with ``Fraction``; evaluating a tournament in bulk reads them from a table that fills itself one
entry at a time from that same exact computation, so each distinct entry is computed once per
process and the table can never disagree with the rule.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from zdb.rating.rounding import Floats, Ints

__all__ = ["RATING_LIMIT", "LazyTable"]

#: ratings in [0, RATING_LIMIT) are tabulated; any other is computed each time it occurs
RATING_LIMIT = 4096


class LazyTable:
    """Rows of ``width`` floats of an exact function of (rating, key), for keys in [0, keys)."""

    __slots__ = ("_compute", "_keys", "_values", "_width")

    def __init__(self, keys: int, width: int, compute: Callable[[int, int], tuple[float, ...]]) -> None:
        self._keys, self._width, self._compute = keys, width, compute
        self._values: Floats | None = None  # allocated on first use: most processes never need it

    def __call__(self, ratings: Ints, keys: Ints) -> Floats:
        """One row per element: ``compute(ratings[a], keys[a])``."""
        if self._values is None:
            self._values = np.full((RATING_LIMIT * self._keys, self._width), np.nan)
        inside = (ratings >= 0) & (ratings < RATING_LIMIT)
        slots = np.where(inside, ratings * self._keys + keys, 0)
        rows: Floats = self._values[slots]
        # A row counts only when whole: another thread may be writing it (then it is computed
        # here again, to the same values).
        missing = ~inside | np.isnan(rows).any(axis=1)
        if missing.any():
            for a in np.flatnonzero(missing).tolist():
                rows[a] = row = self._compute(int(ratings[a]), int(keys[a]))
                if inside[a]:
                    self._values[slots[a]] = row
        return rows
