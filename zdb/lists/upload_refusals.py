"""The bounds an uploaded list is read within (from the settings), and a refused upload said in
words staff understand.

The readers (``zdb.formats``) raise ``ReadRefusedError`` with a kind and its figures; here each
kind becomes one ``Message`` (so that the staff page shows it in German) naming the file, the
line where there is one, and the bound with the setting that sets it. No exception's own text
reaches a person.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

from zdb.config import Settings
from zdb.errors import ValidationError, ValidationProblem
from zdb.formats.read_limits import ReadLimits, ReadRefusedError
from zdb.messages import Message

__all__ = ["refusal_error", "refusal_message", "upload_limits"]

_MB = 1024 * 1024


def upload_limits(
    config: Settings, kind: Literal["list", "fide"], clock: Callable[[], float] = time.monotonic
) -> ReadLimits:
    """The bounds of one import's reading; its deadline starts now on ``clock``."""
    return ReadLimits(
        max_unpacked_bytes=config.max_unpacked_bytes,
        max_members=config.max_archive_members,
        # the federation's list is kept in memory line by line (some 100,000 lines); FIDE's is streamed
        max_lines=config.max_list_lines if kind == "list" else config.max_fide_lines,
        max_line_bytes=config.max_line_bytes,
        clock=clock,
        deadline=clock() + config.list_import_seconds,
        seconds=config.list_import_seconds,
    )


def _size(count: object) -> Message:
    if isinstance(count, int) and count >= _MB and count % _MB == 0:
        return Message("{count} MB", count=count // _MB)
    return Message("{count} bytes", count=count)


def _seconds(value: object) -> str:
    """``3600`` for 3600.0: a bound of whole seconds written as one."""
    number = float(value) if isinstance(value, int | float) else 0.0
    return str(int(number)) if number.is_integer() else str(number)


def refusal_message(error: ReadRefusedError) -> Message:
    """What is wrong with the upload, in words for staff."""
    file, values, kind = error.file, error.values, error.kind
    line, bound = values.get("line", 0), values.get("bound", 0)
    if kind == "not_zip":
        return Message("{file} is not a ZIP archive: upload the list as the ZIP it is published in", file=file)
    if kind == "damaged":
        return Message(
            "the archive is damaged: {file} cannot be unpacked (its data or checksum is wrong); "
            "download or pack it again",
            file=file,
        )
    if kind == "encrypted":
        return Message("{file} is encrypted (protected by a password): pack it again without a password", file=file)
    if kind == "compression":
        return Message(
            "{file} is packed with a method that is not read here (method {method}): pack it again with Deflate",
            file=file,
            method=values.get("method", "?"),
        )
    if kind == "too_many_members":
        return Message(
            "the archive holds {count} files, more than the bound of {bound} files for an upload",
            count=values.get("count", 0),
            bound=bound,
        )
    if kind == "unpacked_too_large":
        return Message(
            "the unpacked file {file} would be larger than {size} (the bound for unpacked uploads, "
            "ZDB_MAX_UNPACKED_BYTES)",
            file=file,
            size=_size(bound),
        )
    if kind == "line_too_long":
        return Message(
            "line {line} of {file} is longer than {size} (the bound for one line, ZDB_MAX_LINE_BYTES)",
            line=line,
            file=file,
            size=_size(bound),
        )
    if kind == "too_many_lines":
        return Message(
            "{file} has more than {bound} lines (the bound for the lines of one file)", file=file, bound=bound
        )
    if kind == "xml_too_deep":
        return Message(
            "line {line} of {file}: the XML elements nest deeper than {bound} levels (the bound for nesting; "
            "FIDE's list nests three deep)",
            line=line,
            file=file,
            bound=bound,
        )
    if kind == "xml_too_many_elements":
        return Message("{file} has more than {bound} XML elements (the bound for elements)", file=file, bound=bound)
    if kind == "xml_dtd":
        return Message(
            "line {line} of {file}: the XML declares a document type or entities, which FIDE's list never does",
            line=line,
            file=file,
        )
    if kind == "too_slow":
        return Message(
            "reading {file} took longer than {seconds} seconds (the bound for an import's run time, "
            "ZDB_LIST_IMPORT_SECONDS)",
            file=file,
            seconds=_seconds(values.get("seconds", 0)),
        )
    if kind == "utf16":
        return Message(
            "{file} is encoded as UTF-16: save it as UTF-8 or Windows-1252 (ANSI) and upload it again", file=file
        )
    if kind == "binary":
        return Message("line {line} of {file} holds NUL bytes: it is not a text file", line=line, file=file)
    return Message("{file} cannot be read", file=file)


def refusal_error(error: ReadRefusedError) -> ValidationError:
    """The refusal as the error every door maps to a 422 naming the file."""
    return ValidationError([ValidationProblem(error.file, refusal_message(error))])
