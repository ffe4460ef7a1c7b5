"""One door for a submitted tournament file: a FIDE TRF text or a Swiss-Chess SWT, told apart by
content (an upload's name is not always known, and referees rename files).

Both come out as the same ``TrfDocument``, so the intake, the preview, the correction and the
standings treat them alike. A binary file (a NUL byte among its first bytes, and not UTF-16
text) is given to the SWT reader, which names the versions it reads when the file is none of
them; everything else is read as TRF.
"""

from __future__ import annotations

from zdb.formats.swt import is_binary, read_swt_document
from zdb.formats.trf import TrfDocument, parse_trf

__all__ = ["is_swt", "read_tournament_file"]


def is_swt(data: bytes) -> bool:
    """Whether ``read_tournament_file`` reads these bytes as SWT (a binary file)."""
    return is_binary(data)


def read_tournament_file(data: bytes) -> TrfDocument:
    """A TRF or SWT file as a ``TrfDocument``; never raises for bad input."""
    if is_binary(data):
        return read_swt_document(data)
    return parse_trf(data)
