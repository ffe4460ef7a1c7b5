"""One typed value of an SWT record (``zdb.formats.swt.values``), read as the structure
description in ``shared/data/swt/structure`` types it: integers little-endian; a value reaching
past the end of a short record read as if zero bytes followed; an ``asc`` text up to its first
NUL, in Windows' code page cp1252, a byte cp1252 leaves undefined replaced instead of refused."""

from __future__ import annotations

from zdb.formats.swt.layout import Field, Kind
from zdb.formats.swt.values import number, text, u16


def test_numbers_are_little_endian_and_zero_past_the_end() -> None:
    assert u16(b"\x05\x01", 0) == 0x0105
    assert u16(b"\x05", 0) == 5  # the high byte lies past the end
    assert u16(b"", 0) == 0
    field = Field(1, 1, Kind("inb"), 2)
    assert number(b"\x00\x05\x01", field) == 0x0105
    assert number(b"\x00\x05", field) == 5


def test_a_text_ends_at_its_first_nul_and_keeps_an_undefined_byte_as_a_replacement() -> None:
    field = Field(2, 0, Kind("asc"), 8)
    assert text(b"Weber  \x00", field) == "Weber"
    assert text(b"Ab\x00cd\x00ef", field) == "Ab"
    assert text(b"M\xfcller", field) == "Müller"
    assert text(b"A\x81B", field) == "A\ufffdB"  # 0x81 is not defined in cp1252
