"""Which version of FIDE's report file a tournament gets: TRF16 or TRF-2026.

FIDE's Council approved TRF-2026 on 12/05/2025 and applies it from 01/09/2025 (TRF26.pdf, its
title page). The choice, made here once for the API and the referee's page:

* the caller's choice stands (``?version=trf16`` or ``trf26``): a referee whose rating officer
  still reads TRF16, or who wants the new records for an older event, asks for it;
* without one, a tournament ending on or after 01/09/2025 gets TRF26, as FIDE asks from then on;
* so does a team season, whatever its dates: only TRF26's ``310`` carries a team's match
  points, game points and rank (TRF16's ``013`` has names and members only);
* everything else (an individual tournament ended before that day) gets TRF16, the format FIDE
  took for it then.
"""

from __future__ import annotations

from datetime import date

from zdb.formats.trf.writer import TrfVersion

__all__ = ["TRF26_FROM", "report_version"]

#: the day FIDE applies TRF-2026 from
TRF26_FROM = date(2025, 9, 1)


def report_version(requested: TrfVersion | None, end_date: date, *, team: bool) -> TrfVersion:
    if requested is not None:
        return requested
    return "trf26" if team or end_date >= TRF26_FROM else "trf16"
