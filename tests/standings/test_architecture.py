"""zdb/standings is a pure library: it calls no clock, no file and no console. What it may
import (the engine's values, the readers of the engine's JSON format and of TRF, its own
modules) is an import-linter contract in pyproject.toml."""

from __future__ import annotations

from pathlib import Path

import zdb.standings
from tests.purity import assert_calls_no_clock_or_io

PACKAGE = Path(zdb.standings.__file__).parent


def test_standings_read_no_clock_and_do_no_io() -> None:
    assert_calls_no_clock_or_io(PACKAGE)
