"""Reading one typed value of the layout (``layout.Field``) out of a record's bytes.

The caller has checked that the record lies within the file; a value reaching past the end of
the bytes it is given reads as zero bytes, so a reader never raises on a short record.
"""

from __future__ import annotations

from datetime import date, timedelta

from zdb.formats.swt.layout import Field, Kind

__all__ = ["TEXT_ENCODING", "number", "text", "u16", "when"]

#: Swiss-Chess is a Windows program: its texts are in the Windows ANSI code page (cp1252 for
#: German); bytes cp1252 leaves undefined are replaced.
TEXT_ENCODING = "cp1252"
#: ``dat`` counts days from 1899-12-30 (day 41413 is the first round date 2013-05-19 of the
#: individual sample, as its JSON says)
_DAY_ZERO = date(1899, 12, 30)


def _bytes(record: bytes, field: Field) -> bytes:
    chunk = record[field.offset : field.offset + field.length]
    return chunk.ljust(field.length, b"\x00")


def u16(data: bytes, offset: int) -> int:
    """Two bytes little-endian (``inb``); 0 past the end."""
    return int.from_bytes(data[offset : offset + 2].ljust(2, b"\x00"), "little")


def number(record: bytes, field: Field, *, team_id_offset: int = 0) -> int:
    """An ``int``/``inb``/``bib``/``sel`` (the raw byte)/``boo`` (0 or 255)/``in9`` value."""
    raw = int.from_bytes(_bytes(record, field), "little")
    if field.kind is Kind.IN9:
        return raw - team_id_offset if raw else 0
    return raw


def text(record: bytes, field: Field) -> str:
    """An ``asc`` value: up to the first NUL, trailing blanks removed."""
    raw = _bytes(record, field).split(b"\x00", 1)[0]
    return raw.decode(TEXT_ENCODING, errors="replace").rstrip()


def when(record: bytes, field: Field) -> date | None:
    """A ``dat`` value; None for 0 (not set)."""
    days = int.from_bytes(_bytes(record, field), "little")
    return _DAY_ZERO + timedelta(days=days) if days else None
