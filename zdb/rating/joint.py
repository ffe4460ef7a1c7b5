"""The joint iteration of spec §9.4: the first ratings of all newcomers solved together.

Each newcomer's equation ``Σ P(Ri − R_opp) = W`` involves the other newcomers he played, so
the equations form one system. Solving it player by player (Gauss-Seidel) crawls when a group
of newcomers mostly played each other and is held only weakly by established opponents: the
whole group must drift together, a step of 1e-5 at a time. Newton's method on the whole system
does not care: its Jacobian is a weighted graph Laplacian plus the fixed opponents' weights,
symmetric positive definite, so each step solves a small linear system; a trust region and a
backtracking line search on ½‖F‖² keep every step safe far from the solution.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import erf, exp, sqrt

from zdb.rating.expectation import SOLVE_TOLERANCE, solve_rating

__all__ = ["JointEquation", "solve_jointly"]

_SCALE = 400.0
_DENSITY = 1.0 / (_SCALE * sqrt(3.141592653589793))
_MAX_STEPS = 200
#: A Newton step moves no rating by more than this: beyond a few hundred points the linear
#: model of the expected score says nothing (trust region).
_MAX_MOVE = 400.0


@dataclass(frozen=True, slots=True)
class JointEquation:
    """One newcomer's equation: fixed opponents' ratings, the other unknowns he played (by
    position, once per game) and his points in all of these games."""

    fixed: tuple[float, ...]
    coupled: tuple[int, ...]
    points: float


def _residuals(equations: Sequence[JointEquation], x: list[float]) -> list[float]:
    values = []
    for a, equation in enumerate(equations):
        xa = x[a]
        value = -equation.points
        for r in equation.fixed:
            value += 0.5 * (1.0 + erf((xa - r) / _SCALE))
        for b in equation.coupled:
            value += 0.5 * (1.0 + erf((xa - x[b]) / _SCALE))
        values.append(value)
    return values


def _jacobian(equations: Sequence[JointEquation], x: list[float]) -> list[list[float]]:
    size = len(equations)
    matrix = [[0.0] * size for _ in range(size)]
    for a, equation in enumerate(equations):
        row = matrix[a]
        xa = x[a]
        diagonal = 0.0
        for r in equation.fixed:
            z = (xa - r) / _SCALE
            diagonal += exp(-z * z)
        for b in equation.coupled:
            z = (xa - x[b]) / _SCALE
            weight = exp(-z * z)
            diagonal += weight
            row[b] -= weight * _DENSITY
        row[a] += diagonal * _DENSITY
    return matrix


def _solve_linear(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems are small)."""
    size = len(rhs)
    rows = [[*matrix[a], rhs[a]] for a in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col]
        lead = head[col]
        for r in range(col + 1, size):
            row = rows[r]
            factor = row[col] / lead
            if factor:
                for c in range(col, size + 1):
                    row[c] -= factor * head[c]
    solution = [0.0] * size
    for a in range(size - 1, -1, -1):
        row = rows[a]
        total = row[size] - sum(row[c] * solution[c] for c in range(a + 1, size))
        solution[a] = total / row[a]
    return solution


def solve_jointly(equations: Sequence[JointEquation]) -> list[float]:
    """The ratings that satisfy every equation, to 1e-10 (spec §13.13).

    Every equation must have a score strictly between 0 and its number of games, and the group
    must have at least one fixed opponent (the stage conditions of spec §9.2-9.3 guarantee
    both), so that exactly one finite solution exists and the Jacobian is never singular.
    """
    # Start each unknown at his own solution with the other unknowns at the mean of all fixed
    # opponents: usually close already.
    fixed = [r for e in equations for r in e.fixed]
    start = sum(fixed) / len(fixed)
    x = [solve_rating([*e.fixed, *(start for _ in e.coupled)], e.points) for e in equations]
    if all(not e.coupled for e in equations):
        return x  # no newcomer played another: each was solved exactly above
    residual = _residuals(equations, x)
    for _ in range(_MAX_STEPS):
        step = _solve_linear(_jacobian(equations, x), [-f for f in residual])
        longest = max(abs(d) for d in step)
        if longest < SOLVE_TOLERANCE:
            # The Newton step estimates the remaining error: below 1e-10, done (spec §13.13).
            return [xa + da for xa, da in zip(x, step, strict=True)]
        if longest > _MAX_MOVE:
            step = [d * _MAX_MOVE / longest for d in step]
        norm = sum(f * f for f in residual)
        scale = 1.0
        while True:
            trial = [xa + scale * da for xa, da in zip(x, step, strict=True)]
            trial_residual = _residuals(equations, trial)
            # Armijo on ½‖F‖²: the Newton direction descends it at rate −‖F‖².
            if sum(f * f for f in trial_residual) <= (1.0 - 1e-4 * scale) * norm or scale < 1e-6:
                break
            scale *= 0.5
        x, residual = trial, trial_residual
    raise ArithmeticError("the joint iteration did not converge")  # pragma: no cover - Newton converges
