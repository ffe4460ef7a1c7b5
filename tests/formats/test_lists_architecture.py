"""The rating-list and FIDE-list readers and writers are pure: they call no clock, no file and
no console (files come in as bytes or streams). What they import (each other and the DSB file
writer) is an import-linter contract in pyproject.toml, as is the generators' purity."""

from __future__ import annotations

from pathlib import Path

import pytest

import zdb.formats
from tests.purity import assert_calls_no_clock_or_io

FORMATS = Path(zdb.formats.__file__).parent
MODULES = [
    FORMATS / f"{name}.py"
    for name in (
        "list_model",
        "list_layouts",
        "list_text",
        "list_reader",
        "list_writer",
        "portal_files",
        "fide_list",
        "fide_txt",
        "fide_xml",
    )
]


@pytest.mark.parametrize("module", MODULES, ids=lambda path: path.stem)
def test_list_formats_read_no_clock_and_do_no_io(module: Path) -> None:
    assert_calls_no_clock_or_io(module)
