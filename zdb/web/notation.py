"""The referees' notation of crosstable cells in the page's language.

Why: a German page writes a bye "spielfrei" and a forfeit "kampflos", the English one "bye" and
"forfeit"; the signs ("+", "−", "–", "½") are the same in both. The words are in the catalogue.
"""

from __future__ import annotations

from fastapi import Request

from zdb.standings import Notation
from zdb.web.rendering import translate

__all__ = ["page_notation"]


def page_notation(request: Request) -> Notation:
    return Notation(
        white="w",
        black=translate(request, "b"),  # the colour letter of black ("s": Schwarz)
        bye=translate(request, "bye"),
        forfeit=translate(request, "forfeit"),
    )
