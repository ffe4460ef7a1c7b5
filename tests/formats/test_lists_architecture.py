"""The rating-list and FIDE-list readers and writers are pure: they import only each other, the
DSB file writer and a small allow-list of the standard library, and call no clock, no file and
no console (files come in as bytes or streams). The generators of such files import no clock
and no file access either: they draw from a seeded ``Random`` and write to a stream given."""

from __future__ import annotations

from pathlib import Path

import pytest

import zdb.formats
import zdb.synthetic
from tests.purity import assert_calls_no_clock_or_io, assert_imports_only

FORMATS = Path(zdb.formats.__file__).parent
MODULES = [
    FORMATS / f"{name}.py"
    for name in ("list_model", "list_layouts", "list_text", "list_reader", "list_writer", "fide_list", "fide_txt",
                 "fide_xml")
]  # fmt: skip
GENERATORS = [Path(zdb.synthetic.__file__).parent / f"{name}.py" for name in ("rating_lists", "fide_lists")]
ALLOWED = ("zdb.formats.dsb_files", "zdb.formats.list_", "zdb.formats.fide_")
ALLOWED_STDLIB = {
    "__future__", "_csv", "collections", "csv", "dataclasses", "datetime", "io", "operator", "re", "typing", "xml",
    "zipfile",
}  # fmt: skip


@pytest.mark.parametrize("module", MODULES, ids=lambda path: path.stem)
def test_list_formats_import_only_allowed_modules(module: Path) -> None:
    assert_imports_only(module, ALLOWED, ALLOWED_STDLIB)


@pytest.mark.parametrize("module", MODULES, ids=lambda path: path.stem)
def test_list_formats_read_no_clock_and_do_no_io(module: Path) -> None:
    assert_calls_no_clock_or_io(module)


@pytest.mark.parametrize("module", GENERATORS, ids=lambda path: path.stem)
def test_list_generators_import_only_the_formats_and_the_name_lists(module: Path) -> None:
    allowed = (*ALLOWED, "zdb.synthetic.names", "zdb.synthetic.clubs")
    assert_imports_only(module, allowed, {*ALLOWED_STDLIB, "random"})
