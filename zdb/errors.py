"""Typed domain errors. Each names what is wrong; the API maps them to 4xx responses and the
commands to one line and a non-zero exit. Anything else escaping is a bug."""

from __future__ import annotations

from collections.abc import Sequence

from zdb.messages import Message

__all__ = ["ConflictError", "DomainError", "NotFoundError", "ValidationError", "ValidationProblem"]


class DomainError(Exception):
    """Base of every error a user can cause.

    ``str()`` is the English text (what the API and the commands answer); ``text`` keeps the
    ``Message`` it was made from, so that the pages can show it in their language.
    """

    def __init__(self, text: str | Message = "") -> None:
        super().__init__(text)
        self.text = text


class NotFoundError(DomainError):
    pass


class ConflictError(DomainError):
    pass


class ValidationProblem:
    """One problem of a submission: where (field path or line) and what.

    ``message`` is the English text; ``text`` keeps it as template and values when it was made
    from a ``Message``, so that the pages can show it in their language.
    """

    __slots__ = ("message", "place", "text")

    def __init__(self, place: str, message: str | Message) -> None:
        self.place = place
        self.message = str(message)
        self.text = message

    def __repr__(self) -> str:
        return f"{self.place}: {self.message}"


class ValidationError(DomainError):
    """A submission refused as a whole; every problem found is listed, and the warnings found
    beside them (what would not refuse it, but the referee should know)."""

    def __init__(self, problems: list[ValidationProblem], warnings: Sequence[ValidationProblem] = ()) -> None:
        super().__init__("; ".join(repr(p) for p in problems))
        self.problems = problems
        self.warnings = list(warnings)
