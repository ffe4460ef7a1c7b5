"""Every problem of the reader keeps its text as template and values (for the pages to show in
German), and the template filled in is exactly the English ``message``."""

from __future__ import annotations

from zdb.formats.trf import parse_trf
from zdb.messages import Message

_LINES = [
    "012 Broken",
    "042 2026/13/01",
    "062 9",
    "001    1 x   Alpha, A                          1500 GER             1980/13/45  1.0    1     1 w 1     2 b 0",
    "001    2     Beta, B                           1500 GER                         0.0    2     9 b 0     1 w =",
    "001    2     Gamma, C                          1500 GER                         0.0    3",
    "XYZ something",
]
_BROKEN = "\n".join(_LINES) + "\n"


def test_every_problem_has_its_template_and_values() -> None:
    document = parse_trf(_BROKEN.encode())
    assert len(document.problems) >= 5
    for problem in document.problems:
        assert isinstance(problem.text, Message)
        assert str(problem.text) == problem.message
    assert any(p.message == "player 1 is paired with himself" for p in document.problems)
