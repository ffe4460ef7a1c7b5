"""The compiled kernel: the evaluation's hot loops (``loops``) as machine code.

A batch of tournaments spends most of its arithmetic in two places: the expected-score sums of
every established player (We) and the lattice search of every performance (Rh). As array
operations each is a dozen passes over all entries of the batch; as one compiled loop it is
one or two. ``Kernel`` offers both with the signatures of ``lattice.expected_sums`` and
``lattice.rounded_performances`` and gives the same figures: the loops add published sums in
entry order, and every case near a tie goes to the exact scalar path as before.

The compiler is numba, an optional dependency: without it (or with the switch off,
``use_compiled``) ``compiled()`` answers ``None`` and the evaluation takes its array path. numba
is imported at the first batch that asks for the kernel, never when ``zdb`` is imported, so a
command that evaluates nothing in bulk does not pay for it; the machine code is cached beside
the module (``cache=True``), so only the first process after an install compiles it.
``INTERPRETED`` runs the same loops uncompiled: the tests compare it, line for line, with the
compiled kernel and with the array path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import accumulate, pairwise
from typing import Any

import numpy as np

from zdb.rating.expectation import _NORMAL, SOLVE_TOLERANCE
from zdb.rating.joint import JointEquation, solve_jointly
from zdb.rating.lattice import (
    _AT_ARRAY,
    _HALF_ARRAY,
    _MAX_MOVES,
    _TIE_MARGIN,
    _VARIANCE,
    TABLE_LIMIT,
    _quantiles,
    rounded_performance,
)
from zdb.rating.loops import expected_sums_loop, joint_solve_loop, performance_search_loop
from zdb.rating.rounding import Floats, Ints

__all__ = ["INTERPRETED", "Kernel", "compiled", "load", "use_compiled"]


@dataclass(frozen=True, slots=True)
class Kernel:
    """The hot loops, compiled or not, behind the signatures of ``lattice``'s array forms."""

    sums_loop: Callable[..., Any]
    search_loop: Callable[..., Any]
    joint_loop: Callable[..., Any]

    def expected_sums(self, own: Ints, opponents: Ints, owner: Ints, size: int) -> Floats:
        """``lattice.expected_sums``: the same doubles."""
        sums: Floats = self.sums_loop(own, opponents, owner, size, _AT_ARRAY, TABLE_LIMIT)
        return sums

    def rounded_performances(self, owner: Ints, opponents: Ints, points: Floats, counts: Ints, players: Ints) -> Ints:
        """``lattice.rounded_performances``: the same integers."""
        quantiles = _quantiles(points[players], counts[players])
        result: Ints
        result, found = self.search_loop(
            owner,
            opponents,
            points,
            counts,
            players,
            quantiles,
            _HALF_ARRAY,
            TABLE_LIMIT,
            _VARIANCE,
            _TIE_MARGIN,
            _MAX_MOVES,
        )
        for a in np.flatnonzero(~found).tolist():
            p = int(players[a])
            result[a] = rounded_performance(opponents[owner == p].tolist(), float(points[p]))
        return result

    def solve_jointly(self, systems: Sequence[Sequence[JointEquation]]) -> list[list[float]]:
        """``joint.solve_jointly`` of each system: the same doubles."""
        if not _PLAIN_SUM:  # pragma: no cover - Python 3.12 adds floats compensated: no loop does so
            return [solve_jointly(equations) for equations in systems]
        equations = [equation for system in systems for equation in system]
        fixed = [r for equation in equations for r in equation.fixed]
        coupled = [b for equation in equations for b in equation.coupled]
        fixed_starts = [0, *accumulate(len(equation.fixed) for equation in equations)]
        coupled_starts = [0, *accumulate(len(equation.coupled) for equation in equations)]
        group_starts = [0, *accumulate(map(len, systems))]
        points = [equation.points for equation in equations]
        quantiles = [_NORMAL.inv_cdf(e.points / (len(e.fixed) + len(e.coupled))) for e in equations]
        x, solved = self.joint_loop(
            np.array(fixed, dtype=float),
            np.array(fixed_starts, dtype=np.int64),
            np.array(coupled, dtype=np.int64),
            np.array(coupled_starts, dtype=np.int64),
            np.array(points, dtype=float),
            np.array(quantiles),
            np.array(group_starts, dtype=np.int64),
            SOLVE_TOLERANCE,
        )
        solutions: list[float] = x.tolist()
        return [
            solutions[a:b] if solved[g] else solve_jointly(systems[g])
            for g, (a, b) in enumerate(pairwise(group_starts))
        ]

    def warm_up(self) -> None:
        """Compile the loops now (or load them from the cache), not in the first batch."""
        owner = np.zeros(2, dtype=np.int64)
        ratings = np.array([1500, 1600], dtype=np.int64)
        self.expected_sums(ratings, ratings, owner, 2)
        self.rounded_performances(owner, ratings, np.array([1.0, 0.0]), np.array([2, 0]), np.zeros(1, dtype=np.int64))
        self.solve_jointly([[JointEquation((1500, 1600), (1,), 1.5), JointEquation((1700,), (0,), 0.5)]])


#: the loops as plain Python (slow): what the tests hold the compiled kernel to
INTERPRETED = Kernel(expected_sums_loop, performance_search_loop, joint_solve_loop)
#: Python up to 3.11 adds floats one after the other, as a loop does (3.12 compensates)
_PLAIN_SUM = sum([1.0, 1e100, 1.0, -1e100]) == 0.0

_switch = {"on": True}


def use_compiled(enabled: bool) -> None:
    """The one switch: whether bulk evaluations (the replay's batches) use the compiled kernel
    when numba is installed (on unless switched off; ``ZDB_COMPILED_KERNEL=off`` in settings)."""
    _switch["on"] = enabled


def compiled() -> Kernel | None:
    """The compiled kernel, or ``None`` when it is switched off or numba is not installed."""
    return _compile() if _switch["on"] else None


@cache  # two threads asking at once may both compile: numba serialises it, same result
def _compile() -> Kernel | None:
    return load()


def load() -> Kernel | None:
    """The kernel compiled by numba (machine code from the cache once compiled), or ``None``
    when numba is not installed."""
    try:
        import numba  # noqa: PLC0415 - imported at first use: the import alone takes half a second
    except ImportError:
        return None
    loops: tuple[Callable[..., Any], ...] = (expected_sums_loop, performance_search_loop, joint_solve_loop)
    # No fastmath: the compiled arithmetic must round as Python's does, step for step.
    try:
        cached = numba.njit(cache=True, nogil=True)
        return Kernel(*[cached(loop) for loop in loops])
    except RuntimeError:
        # Nowhere to write the cache (an install owned by another user and no home folder;
        # NUMBA_CACHE_DIR names a place): compiled anew in each process, a few seconds.
        uncached = numba.njit(nogil=True)
        return Kernel(*[uncached(loop) for loop in loops])
