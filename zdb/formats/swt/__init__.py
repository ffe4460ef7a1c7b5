"""A reader for Swiss-Chess tournament files (``.SWT``, versions 7.xx and 8.xx): bytes in, data and
problems out, never raising on bad input.

Why our own reader: most German referees pair with Swiss-Chess and keep their tournaments as
``.SWT``, a binary format without a published specification. There is no maintained Python
reader, and an upload must be answered with every problem named, as for TRF.

Sources: the structure description of fnogatz/SWT-structure-files (commit f48c90f, LGPL-3): the
offsets, lengths, types and code tables of the general data, player, team and round records of
versions 7.xx and 8.xx; and the two sample files of fnogatz/swtparser.js (commit 977c655, MIT)
with that project's reading of them, which the tests compare field by field. Both are copied to
``shared/data/swt`` (see its SOURCES.md); ``layout.py`` cites them for every offset.

``read_swt`` gives the records as Swiss-Chess wrote them (``SwtFile``); ``read_swt_document``
converts them into the ``TrfDocument`` of ``zdb.formats.trf``, so that an SWT takes the TRF's way
through the intake and the standings. An SWT has no lines: its problems name the record
("player 7") and the Swiss-Chess field ("Geburtsdatum"). A file of another version, or one that
is no SWT, gets one error saying which versions are read and to export FIDE TRF from Swiss-Chess.
"""

from __future__ import annotations

from zdb.formats.swt.convert import swt_document
from zdb.formats.swt.model import SwtFile, SwtGeneral, SwtPairing, SwtPlayer, SwtTeam, SwtTeamPairing
from zdb.formats.swt.reader import is_binary, read_swt
from zdb.formats.trf.model import TrfDocument

__all__ = [
    "SwtFile",
    "SwtGeneral",
    "SwtPairing",
    "SwtPlayer",
    "SwtTeam",
    "SwtTeamPairing",
    "is_binary",
    "read_swt",
    "read_swt_document",
]


def read_swt_document(data: bytes) -> TrfDocument:
    """An SWT file as a ``TrfDocument`` (``file_format`` "SWT"); never raises for bad input."""
    return swt_document(read_swt(data))
