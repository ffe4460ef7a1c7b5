"""zdb/rating is a pure library: it calls no clock, no file and no console. What it may import
(its own modules, numpy for evaluating a tournament in bulk, issue 2, numba as the optional
compiler of its hot loops, issue 23, and no I/O, randomness, framework or database) is an
import-linter contract in pyproject.toml."""

from __future__ import annotations

from pathlib import Path

import zdb.rating
from tests.purity import assert_calls_no_clock_or_io

PACKAGE = Path(zdb.rating.__file__).parent


def test_rating_reads_no_clock_and_does_no_io() -> None:
    assert_calls_no_clock_or_io(PACKAGE)
