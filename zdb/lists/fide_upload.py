"""An uploaded FIDE list as lines: the text or XML file itself, or FIDE's own ZIP of one
(``players_list.zip``, ``players_list_xml.zip``), which is what staff download and what fits an
upload (the text list is some 320 MB, its ZIP about a tenth).

The ZIP's member is decompressed as it is read, a line at a time, within the upload's bounds
(``zdb.formats.read_limits``: unpacked size, lines, line length, the deadline), so an upload
costs its compressed size in memory, not the list's, and a ZIP bomb stops at the bound.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager

from zdb.errors import ValidationError, ValidationProblem
from zdb.formats.read_limits import ReadLimits, ReadRefusedError, bounded_lines
from zdb.formats.upload_archive import files_of, member_lines, open_archive
from zdb.lists.upload_refusals import refusal_error
from zdb.messages import Message

__all__ = ["fide_lines"]

_LISTS = (".txt", ".xml")


@contextmanager
def fide_lines(payload: bytes, file: str, limits: ReadLimits | None = None) -> Iterator[tuple[Iterator[bytes], str]]:
    """The lines of the uploaded ``file`` and the name that decides its reader (``.xml`` or text).
    A ZIP must hold exactly one ``.txt`` or ``.xml`` file; anything else is refused naming what it
    holds. A damaged, encrypted or oversized ZIP is refused naming that (``ValidationError``)."""
    limits = limits or ReadLimits()
    if not zipfile.is_zipfile(io.BytesIO(payload)):
        yield bounded_lines(io.BytesIO(payload), file, limits), file
        return
    try:
        archive = open_archive(payload, file, limits)
    except ReadRefusedError as error:
        raise refusal_error(error) from None
    with archive:
        names = [info.filename for info in files_of(archive)]
        lists = [info for info in files_of(archive) if info.filename.lower().endswith(_LISTS)]
        if len(lists) != 1:
            held: str | Message = ", ".join(names[:5]) or Message("no file")
            problem = Message("a ZIP of FIDE's list holds one .txt or .xml file; this one holds {held}", held=held)
            raise ValidationError([ValidationProblem(file, problem)])
        yield member_lines(archive, lists[0], limits), lists[0].filename
