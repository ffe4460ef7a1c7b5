"""Problem texts speak the referee's language: they say what the rule requires, never which
section of the specification says so (the code's comments cite the rules)."""

from __future__ import annotations

import re

from zdb.web.catalogue import extract_messages

_CITATION = re.compile(r"§|\bspec\b|\bWO\s*\d|\bart\.\s*\d", re.IGNORECASE)


def test_no_problem_text_cites_the_specification() -> None:
    texts = [m.id for m in extract_messages() if isinstance(m.id, str) and m.id]
    assert len(texts) > 100
    citing = [text for text in texts if _CITATION.search(text)]
    assert citing == []
