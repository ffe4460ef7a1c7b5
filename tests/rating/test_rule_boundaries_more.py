"""Boundaries of the rules that neither the vectors nor the other unit tests reach, each found
by a change to the engine (a mutant, docs/mutation.md) that every other test let pass.

The expected values come from the spec's text (the section is named at each test), never from
the engine.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from zdb.rating.rounding import round_float_to, rounded_float, rounded_floats

#: 0.25 − 4.6·10⁻¹⁰: to 9 decimals 0.250000000 (the tenth digit is 5), so one decimal half up is 0.3
NEAR_A_TIE = 0.24999999954


# spec §5: a float is first rounded to 9 decimals, then half up. A value closer to a tie than
# 5·10⁻¹⁰ (in units of its last decimal place) becomes the tie and rounds up, although it lies
# below it; only the exact path sees this, so the fast path must leave such values to it.
def test_a_float_within_half_a_ninth_decimal_below_a_tie_rounds_up() -> None:
    assert round_float_to(NEAR_A_TIE, 1) == Fraction(3, 10)
    assert rounded_float(NEAR_A_TIE, 1) == 0.3
    assert rounded_floats(np.array([NEAR_A_TIE, 0.2499999994]), 1).tolist() == [0.3, 0.2]
