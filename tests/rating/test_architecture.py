"""zdb/rating is a pure library: it imports only its own modules, numpy (arrays for evaluating a
tournament in bulk, issue 2), numba (the optional compiler of its hot loops, issue 23) and a
small allow-list of the standard library (no I/O, no clock, no randomness, no framework, no
database)."""

from __future__ import annotations

from pathlib import Path

import zdb.rating
from tests.purity import assert_calls_no_clock_or_io, assert_imports_only

PACKAGE = Path(zdb.rating.__file__).parent
ALLOWED_STDLIB = {
    "__future__",
    "bisect",
    "collections",
    "dataclasses",
    "datetime",
    "decimal",
    "enum",
    "fractions",
    "functools",
    "heapq",
    "itertools",
    "math",
    "operator",
    "statistics",
    "types",
    "typing",
}


def test_rating_imports_only_allowed_modules() -> None:
    # numba: the optional compiler of the kernel's loops (``zdb.rating.kernel``), imported lazily
    assert_imports_only(PACKAGE, ["zdb.rating", "numpy", "numba"], ALLOWED_STDLIB)


def test_rating_reads_no_clock_and_does_no_io() -> None:
    assert_calls_no_clock_or_io(PACKAGE)
