"""A tolerant reader for FIDE Tournament Report Files (TRF): bytes or text in, data and problems out.

Why our own reader: referees submit finished tournaments as TRF exported from Swiss-Manager,
Swiss-Chess, Vega, lichess and others, and each writes the format a little differently. The
PyPI ``trf`` package drops national rating lines and fails a whole file on one bad line without
a line number. This reader keeps going: it returns everything it could read together with every
problem found (1-based line, column or field, ``error``/``warning``, an English message), so a
submission can be answered with one complete list.

Layouts follow these documents (column numbers are 1-based and counted in characters):

* FIDE TRF16, "Format of Tournament Report File", Krause 2006, FIDE Handbook C.04 Annex 2
  (https://www.fide.com/FIDE/handbook/C04Annex2_TRF16.pdf): the header records 012-132, the
  ``001`` player line, the ``013`` team line.
* FIDE TRF26, "Tournament Report File Format Version 2026" (https://handbook.fide.com/files/
  handbook/TRF26.pdf, approved 12/05/2025; transcribed in echecsjs/trf ``SPEC.md``): records
  142-362, National Rating Support lines, 240 byes, 250 accelerations, 260 prohibited pairings,
  299 abnormal points, 300 board order, 310 teams, 320 team byes, 330 forfeited matches, 801/802.
* FIDE TEC "Draft TRF-2025 extensions for team pairing and tie-breaks" (tec.fide.com, 2024-09-04)
  and its Grandmommy's Cup sample.
* JaVaFo Advanced User Manual (https://www.rrweb.org/javafo/aum/JaVaFo2_AUM.htm): the TRF(x)
  extensions ``XXR`` (rounds), ``XXC`` (rank / white1 / black1), ``XXA``, ``XXS``, ``XXZ``, ``XXP``.
* Other readers compared: echecsjs/trf ``src/parse.ts`` (columns, JaVaFo single-letter titles) and
  sanichi/icu_tournament ``tournament_krause.rb`` (ICU title letters ``g m f c wg wm wf wc``,
  blank cells); the files in ``shared/data/trf`` (from Sharly-Chess, bbpPairings, echecsjs,
  icu_tournament, lichess exports, CPPDubovSystem; see its SOURCES.md) for what tools really write.

``parse_trf`` never raises for bad input; ``iter_games`` gives each pairing once with an engine
result code (see ``games.py`` for the mapping of the TRF codes, W/D/L included), ``iter_byes``
the cells without an opponent.
"""

from __future__ import annotations

from zdb.formats.trf.games import iter_byes, iter_games
from zdb.formats.trf.model import (
    ByeKind,
    Severity,
    TrfBye,
    TrfByeRecord,
    TrfDocument,
    TrfGame,
    TrfNationalRecord,
    TrfPlayer,
    TrfProblem,
    TrfRecord,
    TrfRoundCell,
    TrfTeam,
    TrfTeamBye,
    TrfTeamForfeit,
)
from zdb.formats.trf.parser import parse_trf

__all__ = [
    "ByeKind",
    "Severity",
    "TrfBye",
    "TrfByeRecord",
    "TrfDocument",
    "TrfGame",
    "TrfNationalRecord",
    "TrfPlayer",
    "TrfProblem",
    "TrfRecord",
    "TrfRoundCell",
    "TrfTeam",
    "TrfTeamBye",
    "TrfTeamForfeit",
    "iter_byes",
    "iter_games",
    "parse_trf",
]
