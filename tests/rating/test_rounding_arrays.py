"""The array forms of spec §5's roundings give the scalar rules' results element for element,
ties and float noise at a tie included."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from tests.rating.test_properties import PROPERTY
from zdb.rating.rounding import round_float, round_floats, rounded_float, rounded_floats


def test_ties_round_half_up_after_nine_decimals() -> None:
    # spec §5: round to 9 decimals first, then half up
    assert round_floats(np.array([2062.4999999999995, 2062.5, 2061.4999, -2.5])).tolist() == [2063, 2063, 2061, -2]
    assert rounded_floats(np.array([1.0000005, 0.1234565, 0.1234564, 0.0000005]), 6).tolist() == [
        1.000001,
        0.123457,
        0.123456,
        0.000001,
    ]


@PROPERTY
@given(st.lists(st.floats(-5000, 5000, allow_nan=False), min_size=1, max_size=8), st.integers(0, 9))
def test_arrays_round_as_the_scalar_rules(values: list[float], shift: int) -> None:
    # values and values shifted onto x.5 and x.xxxxxx5 ties, where the rules decide exactly
    near_ties = [round(v) + 0.5 + shift * 1e-12 for v in values] + [round(v, 6) + 5e-7 for v in values]
    for sample in (values, near_ties):
        array = np.array(sample)
        assert round_floats(array).tolist() == [round_float(v) for v in sample]
        assert rounded_floats(array, 6).tolist() == [rounded_float(v, 6) for v in sample]
