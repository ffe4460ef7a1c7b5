"""Encodings and CSV lines of the federation's list files, for their reader and writer.

The DSB's files come in UTF-8 (with or without a byte-order mark), Windows-1252 (the portal's
export) and Latin-1 (older DeWIS files). The encoding is detected when it is not stated: a
byte-order mark means UTF-8; text that decodes as UTF-8 is UTF-8 (a Windows-1252 or Latin-1 file
with umlauts practically never does); otherwise bytes 0x80–0x9F decide: Windows-1252 prints
them (``€``, ``„``, ``Š``…), Latin-1 has only control characters there, which no list contains,
so a file using one of the five bytes Windows-1252 leaves undefined is Latin-1 and every other
one Windows-1252. Without such bytes the two read the same text and Windows-1252 is named.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from zdb.formats.dsb_files import Codec

__all__ = ["BOM", "csv_line", "csv_text", "decode", "detect_codec", "encode"]

BOM = b"\xef\xbb\xbf"
_CP1252_UNDEFINED = frozenset(b"\x81\x8d\x8f\x90\x9d")
_C1 = frozenset(range(0x80, 0xA0))


def detect_codec(data: bytes) -> tuple[Codec, bool]:
    """The codec of ``data`` and whether it starts with a UTF-8 byte-order mark."""
    if data.startswith(BOM):
        return "utf-8", True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return "utf-8", False
    high = set(data) & _C1
    return ("latin-1" if high & _CP1252_UNDEFINED else "cp1252"), False


def decode(data: bytes, codec: Codec | None = None) -> tuple[str, Codec, bool]:
    """The text of ``data`` (without a byte-order mark), its codec and whether it had the mark.
    ``UnicodeDecodeError`` when a stated codec does not fit."""
    bom = data.startswith(BOM)
    if codec is None:
        codec, bom = detect_codec(data)
    body = data[len(BOM) :] if bom and codec == "utf-8" else data
    return body.decode(codec), codec, bom and codec == "utf-8"


def encode(text: str, codec: Codec, bom: bool = False) -> bytes:
    data = text.encode(codec)
    return BOM + data if bom and codec == "utf-8" else data


def _field(value: str, quote_space: bool) -> str:
    special = any(c in value for c in ',"\r\n') or (quote_space and " " in value)
    return '"' + value.replace('"', '""') + '"' if special else value


def csv_line(values: Sequence[str], quote_space: bool) -> str:
    """One CSV line without its end: a field is quoted when it holds a comma, a quote or a line
    break (as Python's ``csv`` module does) and, for the portal's files, a space."""
    return ",".join(_field(value, quote_space) for value in values)


def csv_text(lines: Iterable[Sequence[str]], quote_space: bool, newline: str) -> str:
    return "".join(csv_line(values, quote_space) + newline for values in lines)
