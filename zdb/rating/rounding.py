"""Rounding exactly as spec §5 demands.

Every rounding in the engine goes through this module, so that no binary-float tie
(``2062.4999999999995``) and no banker's rounding can ever decide a published rating. The
array forms decide in bulk only what is clear of a tie and hand every element near one to the
scalar function, so both give the same result element for element.
"""

from __future__ import annotations

from fractions import Fraction
from math import floor

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "FLOAT_DECIMALS",
    "Floats",
    "Ints",
    "round_float",
    "round_float_to",
    "round_floats",
    "round_half_up",
    "round_half_up_to",
    "rounded_float",
    "rounded_floats",
]

#: the engine's arrays: one element per participant or per game entry
Floats = NDArray[np.float64]
Ints = NDArray[np.int64]

#: spec §5: a value computed in floating point is first rounded to this many decimals.
FLOAT_DECIMALS = 9


def round_half_up(value: Fraction | int) -> int:
    """Round an exact rational half up (kaufmännisch): 2.5 -> 3, -2.5 -> -2."""
    return floor(value + Fraction(1, 2))


def round_half_up_to(value: Fraction | int, decimals: int) -> Fraction:
    """Round an exact rational half up to ``decimals`` places, still exact."""
    scale = 10**decimals
    return Fraction(round_half_up(value * scale), scale)


def _denoised(value: float) -> Fraction:
    # spec §5: round to 9 decimals first, so that float noise cannot decide a tie.
    return round_half_up_to(Fraction(value), FLOAT_DECIMALS)


#: Farther than this from a tie (x.5), float noise cannot change the rounded value.
_CLEAR_OF_TIE = 1e-6


def round_float(value: float) -> int:
    """Round a floating-point result to an integer under spec §5."""
    lower = floor(value)
    if abs(value - lower - 0.5) > _CLEAR_OF_TIE:
        return lower + 1 if value - lower > 0.5 else lower
    return round_half_up(_denoised(value))


def round_float_to(value: float, decimals: int) -> Fraction:
    """Round a floating-point result to ``decimals`` places under spec §5 (exact result)."""
    scale = 10**decimals
    scaled = value * scale
    lower = floor(scaled)
    # Farther than 1e-9 from a tie, the 9-decimal rounding cannot move the value onto it.
    if abs(scaled - lower - 0.5) > scale * 10.0**-FLOAT_DECIMALS:
        return Fraction(lower + 1 if scaled - lower > 0.5 else lower, scale)
    return round_half_up_to(_denoised(value), decimals)


def rounded_float(value: float, decimals: int) -> float:
    """``round_float_to`` as the float nearest to the rounded decimal (for reports)."""
    scale: int = 10**decimals
    scaled = value * scale
    lower = floor(scaled)
    if abs(scaled - lower - 0.5) > scale * 10.0**-FLOAT_DECIMALS:
        return (lower + 1 if scaled - lower > 0.5 else lower) / scale
    return float(round_half_up_to(_denoised(value), decimals))


def round_floats(values: Floats) -> Ints:
    """``round_float`` of every element: in bulk where clear of a tie, one by one near one
    (the same integers, element for element)."""
    lower = np.floor(values)
    fraction = values - lower
    result = (lower + (fraction > 0.5)).astype(np.int64)
    near = np.abs(fraction - 0.5) <= _CLEAR_OF_TIE
    if near.any():
        for k in np.flatnonzero(near).tolist():
            result[k] = round_float(float(values[k]))
    return result


def rounded_floats(values: Floats, decimals: int) -> Floats:
    """``rounded_float`` of every element (the same doubles, element for element)."""
    scale: int = 10**decimals
    scaled = values * scale
    lower = np.floor(scaled)
    fraction = scaled - lower
    result: Floats = (lower + (fraction > 0.5)) / scale
    near = np.abs(fraction - 0.5) <= scale * 10.0**-FLOAT_DECIMALS
    if near.any():
        for k in np.flatnonzero(near).tolist():
            result[k] = rounded_float(float(values[k]), decimals)
    return result
