"""A list's problems and warnings as an import keeps them: each a ``Message`` with its file,
line and column, so that the staff page says them in German.

The reader (``zdb.formats.list_reader``) is a pure library and knows no language: it gives a
problem its English template and values (``Problem.of``), and here they become the ``Message``
the page translates. The import's answer keeps the English lines too (``problems``,
``warnings``), which the API and the command line show as they always have.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zdb.formats.list_model import Problem
from zdb.messages import Message

__all__ = ["PlacedText", "place_of", "placed_problem"]


@dataclass(frozen=True, slots=True)
class PlacedText:
    """A text about a place in a list's file: ``line`` 0 is the file as a whole, an empty
    ``column`` the whole line."""

    file: str
    line: int
    column: str
    text: Message

    def __str__(self) -> str:
        """The English line the API answers: ``file:line: column: text``, as ``Problem`` writes it."""
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.column}: {self.text}" if self.column else f"{where}: {self.text}"

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "column": self.column, "text": self.text.as_json()}


def placed_problem(problem: Problem) -> PlacedText:
    """The reader's or the plan's problem as a text the page translates."""
    if problem.template:
        text = Message(problem.template, **dict(problem.params))
    else:  # a problem made without a template stays in English, its text a value (never a template)
        text = Message("{text}", text=problem.message)
    return PlacedText(problem.file, problem.line, problem.column, text)


def place_of(problem: Problem) -> str:
    """Where a refusal names the problem: ``file:line: column``, without what is not known."""
    where = f"{problem.file}:{problem.line}" if problem.line else problem.file
    return f"{where}: {problem.column}" if problem.column else where
