"""Name folding for search: "Müller", "Mueller", "MULLER" and "muller" all fold to "muller".

Applied to the stored name and to the query alike, so a few different names may share a folded
form (a false positive in a search list is harmless; a missed player is not).
"""

from __future__ import annotations

import unicodedata

__all__ = ["fold_name"]

_DIGRAPHS = (("ae", "a"), ("oe", "o"), ("ue", "u"))


def fold_name(text: str) -> str:
    lowered = text.casefold().replace("ß", "ss")
    stripped = "".join(c for c in unicodedata.normalize("NFKD", lowered) if not unicodedata.combining(c))
    for digraph, vowel in _DIGRAPHS:
        stripped = stripped.replace(digraph, vowel)
    return " ".join(stripped.split())
