"""zdb/standings is a pure library: it imports only the engine's values, the readers of the
engine's JSON format and of TRF, its own modules and a small allow-list of the standard library."""

from __future__ import annotations

from pathlib import Path

import zdb.standings
from tests.purity import assert_calls_no_clock_or_io, assert_imports_only

PACKAGE = Path(zdb.standings.__file__).parent
ALLOWED = ("zdb.standings", "zdb.rating", "zdb.formats.rating_json", "zdb.formats.trf")
ALLOWED_STDLIB = {"__future__", "collections", "dataclasses", "enum", "fractions", "types", "typing"}


def test_standings_import_only_allowed_modules() -> None:
    assert_imports_only(PACKAGE, ALLOWED, ALLOWED_STDLIB)


def test_standings_read_no_clock_and_do_no_io() -> None:
    assert_calls_no_clock_or_io(PACKAGE)
