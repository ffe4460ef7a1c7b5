"""An uploaded FIDE list as lines: the text or XML file itself, or FIDE's own ZIP of one
(``players_list.zip``, ``players_list_xml.zip``), which is what staff download and what fits an
upload (the text list is some 320 MB, its ZIP about a tenth).

The ZIP's member is decompressed as it is read, a line at a time, so an upload costs its
compressed size in memory, not the list's.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from zdb.errors import ValidationError, ValidationProblem
from zdb.messages import Message

__all__ = ["fide_lines"]

_LISTS = (".txt", ".xml")


@contextmanager
def fide_lines(payload: bytes, file: str) -> Iterator[tuple[IO[bytes], str]]:
    """The lines of the uploaded ``file`` and the name that decides its reader (``.xml`` or text).
    A ZIP must hold exactly one ``.txt`` or ``.xml`` file; anything else is refused naming what it holds."""
    if not zipfile.is_zipfile(io.BytesIO(payload)):
        yield io.BytesIO(payload), file
        return
    with zipfile.ZipFile(io.BytesIO(payload)) as archive:
        names = [info.filename for info in archive.infolist() if not info.is_dir()]
        lists = [name for name in names if name.lower().endswith(_LISTS)]
        if len(lists) != 1:
            held: str | Message = ", ".join(names[:5]) or Message("no file")
            problem = Message("a ZIP of FIDE's list holds one .txt or .xml file; this one holds {held}", held=held)
            raise ValidationError([ValidationProblem(file, problem)])
        with archive.open(lists[0]) as member:
            yield member, lists[0]
