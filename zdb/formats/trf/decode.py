"""Bytes to text, and text to numbered lines.

FIDE's TRF16/TRF26 say only "each line shall have a CR as last character"; JaVaFo's manual
recommends UTF-8. Real files come as UTF-8 (with or without BOM), ISO-8859-1/cp1252 and with LF,
CRLF, CR or mixed line ends, so all of them are accepted here and the choice is reported.
"""

from __future__ import annotations

import codecs
import re

from zdb.formats.trf.problems import Problems
from zdb.messages import Message

__all__ = ["decode", "split_lines"]

_EOL = re.compile(r"\r\n|\r|\n")
# Bytes 0x80-0x9F are C1 controls in ISO-8859-1 but letters and signs in cp1252 (except five).
_C1 = re.compile(rb"[\x80-\x9f]")


def decode(data: bytes | str, problems: Problems) -> tuple[str, str | None]:
    """The text and the encoding used (``None`` for ``str`` input). A leading BOM is removed."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff"), None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16").removeprefix("\ufeff"), "utf-16"
        except UnicodeDecodeError:
            problems.warning(None, Message("starts with a UTF-16 byte order mark but is not valid UTF-16"))
    if data.startswith(codecs.BOM_UTF8):
        try:
            return data[len(codecs.BOM_UTF8) :].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError as exc:
            bad = exc.start + len(codecs.BOM_UTF8)
    else:
        try:
            return data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError as exc:
            bad = exc.start
    line = len(_EOL.findall(data[:bad].decode("latin-1"))) + 1
    if _C1.search(data):
        try:
            text = data.decode("cp1252")
            encoding = "cp1252"
        except UnicodeDecodeError:
            text, encoding = data.decode("latin-1"), "iso-8859-1"
    else:
        text, encoding = data.decode("latin-1"), "iso-8859-1"
    # A guess between 8-bit code pages (cp850 would read the same bytes differently): say so.
    problems.warning(
        line,
        Message(
            "the file is not valid UTF-8 (first invalid byte 0x{byte:02X}); decoded as {encoding}",
            byte=data[bad],
            encoding=encoding.upper(),
        ),
        field="encoding",
    )
    return text.removeprefix("\ufeff"), encoding


def split_lines(text: str) -> tuple[list[str], str]:
    """Lines without their terminators, and the line-ending style: LF, CRLF, CR, mixed or none.

    Splits on CR LF, CR and LF only (``str.splitlines`` would also split on U+0085, which a
    Latin-1 decoding can produce). A final terminator does not start another line.
    """
    styles = {match.group() for match in _EOL.finditer(text)}
    names = {"\n": "LF", "\r\n": "CRLF", "\r": "CR"}
    if not styles:
        style = "none"
    elif len(styles) == 1:
        style = names[styles.pop()]
    else:
        style = "mixed"
    lines = _EOL.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines, style
